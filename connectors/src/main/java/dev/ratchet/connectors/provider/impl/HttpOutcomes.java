package dev.ratchet.connectors.provider.impl;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;

/**
 * What an HTTP status from a provider's execute endpoint means for one attempt. A 4xx is a refusal
 * (nothing applied); 429 asks to come back later; a 5xx or 408 after a write leaves the outcome
 * unknown, since the provider may have acted before failing.
 */
public final class HttpOutcomes {

  private HttpOutcomes() {
  }

  /** Null for a 2xx, which the provider-specific body decides. */
  public static ToolResult forStatus(HttpResponse<Buffer> resp, EffectClass effect, String message) {
    int status = resp.statusCode();
    if (status / 100 == 2) {
      return null;
    }
    if (status == 429) {
      return ToolResult.retryable(message, retryAfterMillis(resp.getHeader("Retry-After")));
    }
    if (status == 408 || status >= 500) {
      return effect.isWrite() ? ToolResult.uncertain(message) : ToolResult.retryable(message, 0);
    }
    return ToolResult.rejected(message);
  }

  static long retryAfterMillis(String header) {
    if (header == null) {
      return 1000;
    }
    try {
      return Math.max(0, Long.parseLong(header.trim()) * 1000);
    } catch (NumberFormatException e) {
      return 1000;
    }
  }
}

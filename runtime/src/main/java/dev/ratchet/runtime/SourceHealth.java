package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * Whether a tool source can reach what is behind it (an MCP server, a provider's API), for the
 * catalogue. The detail is scrubbed of secrets: it often quotes what a server answered.
 */
public record SourceHealth(String source, String status, String detail) {

  public SourceHealth {
    detail = Redaction.scrub(detail);
  }

  public static SourceHealth healthy(String source) {
    return new SourceHealth(source, "healthy", null);
  }

  public static SourceHealth unhealthy(String source, String detail) {
    return new SourceHealth(source, "unhealthy", detail);
  }

  /** For sources that have nothing remote to check, such as Java functions. */
  public static SourceHealth local(String source) {
    return new SourceHealth(source, "local", null);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("source", source).put("status", status);
    if (detail != null) {
      json.put("detail", detail);
    }
    return json;
  }
}

package dev.ratchet.connectors.provider.composio.impl;

import dev.ratchet.connectors.provider.impl.ProviderHttp;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Why a Composio tool could not run for a user, asked before anyone approves one of its writes
 * ({@code Tool.cannotRun}): no API key, the configured connected account missing or not
 * {@code ACTIVE}, or, for a toolkit that needs a connection (it has auth configs), no active account
 * of the user. Null when it could run, or when Composio could not be asked (the call then goes on
 * and says what happened).
 */
final class ComposioReadiness {

  private final ProviderHttp http;
  private final Function<String, Future<List<JsonObject>>> authConfigs;

  ComposioReadiness(ProviderHttp http, Function<String, Future<List<JsonObject>>> authConfigs) {
    this.http = http;
    this.authConfigs = authConfigs;
  }

  Future<String> whyNot(String toolkit, String userId, String connectionId) {
    if (!hasKey(http.apiKey())) {
      return Future.succeededFuture("the Composio API key is missing");
    }
    Map<String, String> query = new HashMap<>(Map.of("user_ids", userId, "toolkit_slugs", toolkit));
    if (connectionId != null) {
      query.put("connected_account_ids", connectionId);
    }
    return ComposioPages.all(http, "/api/v3/connected_accounts", query).compose(accounts -> {
      boolean active = accounts.stream().anyMatch(a -> "ACTIVE".equalsIgnoreCase(a.getString("status")));
      if (active) {
        return Future.succeededFuture((String) null);
      }
      List<String> states = accounts.stream().map(a -> a.getString("id") + " is " + a.getString("status")).toList();
      String why = connectionId != null
          ? "connection " + (states.isEmpty() ? connectionId + " is not one of " + userId + "'s accounts"
              : states.get(0))
          : "no active Composio connection of " + userId + " for toolkit " + toolkit
              + (states.isEmpty() ? "" : " (" + String.join(", ", states) + ")") + ": connect it first";
      // a toolkit without auth configs needs no connection at all
      return connectionId != null ? Future.succeededFuture(why)
          : authConfigs.apply(toolkit).map(configs -> configs.isEmpty() ? null : why);
    }).otherwise((String) null);
  }

  private static boolean hasKey(Secret key) {
    try {
      String value = key.reveal();
      return value != null && !value.isBlank();
    } catch (ToolNotSentException e) {
      return false;
    }
  }
}

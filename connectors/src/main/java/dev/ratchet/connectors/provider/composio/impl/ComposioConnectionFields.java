package dev.ratchet.connectors.provider.composio.impl;

import dev.ratchet.connectors.provider.ConnectionField;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.runtime.ErrorCode;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The values a Composio toolkit asks for before it is connected, from its details
 * ({@code GET /api/v3/toolkits/{slug}}: the first {@code auth_config_details} entry, its {@code mode}
 * and {@code fields.connected_account_initiation}), and the {@code connection.state} that carries
 * them when an account is initiated. Errors name fields, never a value: values may be secrets.
 */
final class ComposioConnectionFields {

  private ComposioConnectionFields() {
  }

  static List<ConnectionField> of(JsonObject details) {
    List<ConnectionField> fields = new ArrayList<>();
    for (JsonObject d : ComposioToolProviderImpl.objects(details.getJsonArray("auth_config_details"))) {
      JsonObject init = d.getJsonObject("fields", new JsonObject())
          .getJsonObject("connected_account_initiation", new JsonObject());
      for (String kind : List.of("required", "optional")) {
        for (JsonObject f : ComposioToolProviderImpl.objects(init.getJsonArray(kind))) {
          String type = f.getString("type", "string");
          fields.add(new ConnectionField(f.getString("name"), f.getString("displayName", f.getString("name")), type,
              f.getString("description"), "required".equals(kind),
              f.getBoolean("is_secret", "password".equalsIgnoreCase(type))));
        }
      }
      break;
    }
    return fields;
  }

  /**
   * {@code {"authScheme": mode, "val": values}} once every required field has a value and every
   * value names a field of the toolkit; else fails with {@code INVALID_REQUEST} naming the fields.
   */
  static JsonObject state(String toolkit, JsonObject details, Map<String, String> values) {
    List<ConnectionField> fields = of(details);
    TreeSet<String> known = new TreeSet<>();
    TreeSet<String> missing = new TreeSet<>();
    for (ConnectionField f : fields) {
      known.add(f.name());
      String v = values.get(f.name());
      if (f.required() && (v == null || v.isBlank())) {
        missing.add(f.name());
      }
    }
    TreeSet<String> unknown = new TreeSet<>(values.keySet());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new ProviderException(ErrorCode.INVALID_REQUEST, "toolkit " + toolkit + " has no connection field "
          + String.join(", ", unknown) + "; its fields: " + (known.isEmpty() ? "none" : String.join(", ", known)));
    }
    if (!missing.isEmpty()) {
      throw new ProviderException(ErrorCode.INVALID_REQUEST, "toolkit " + toolkit + " needs a value for "
          + String.join(", ", missing) + " to connect");
    }
    String scheme = ComposioToolProviderImpl.objects(details.getJsonArray("auth_config_details")).stream()
        .map(d -> d.getString("mode")).filter(m -> m != null).findFirst().orElse(null);
    JsonObject state = new JsonObject().put("val", new JsonObject(new java.util.LinkedHashMap<>(values)));
    return scheme == null ? state : state.put("authScheme", scheme);
  }
}

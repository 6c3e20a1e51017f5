package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.impl.Names;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

/**
 * What an operation is called: {@code x-ratchet-agent.name} when given, else its
 * {@code operationId}, else a name derived from its method and path. The derived name is the
 * method, then each path segment in snake case, with a path parameter {@code {petId}} read as
 * {@code by_pet_id}: {@code GET /pets} is {@code get_pets}, {@code GET /pets/{petId}} is
 * {@code get_pets_by_pet_id}, and {@code GET /} is {@code get_root}. It depends on nothing but
 * the method and path, so it stays the same as long as they do.
 */
final class OperationNames {

  private static final String VALID = "[A-Za-z][A-Za-z0-9_]{0,63}";

  private OperationNames() {
  }

  /** The name chosen in the document, or null when the operation has none and is named by {@link #derive}. */
  static String chosen(JsonObject op, JsonObject ext, String origin, String where) {
    Object override = ext.getValue("name");
    if (override != null) {
      if (!(override instanceof String name) || !name.matches(VALID)) {
        throw new ManifestException(origin + ": " + where + ": field 'x-ratchet-agent.name' must be 1-64 letters,"
            + " digits and '_', starting with a letter (found '" + override + "')");
      }
      return name;
    }
    String operationId = op.getString("operationId");
    return operationId == null || operationId.isBlank() ? null : operationId;
  }

  static String derive(String method, String path) {
    StringBuilder name = new StringBuilder(method.toLowerCase(Locale.ROOT));
    boolean any = false;
    for (String segment : path.split("/")) {
      String words = Names.snakeCase(segment.replaceAll("\\{([^}]*)}", " by $1 "));
      if (!words.isEmpty()) {
        name.append('_').append(words);
        any = true;
      }
    }
    return any ? name.toString() : name + "_root";
  }
}

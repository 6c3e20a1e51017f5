package dev.ratchet.server.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "Agent files" table of docs/CONFIGURATION.md against docs/agent.schema.json: every key the
 * schema has is a row, every row is a key of the schema, and a key the schema gives a default has
 * that default in its row. Also: the schema start-up validates with is the published one.
 */
class AgentFilesDocsTest {

  private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|([^|]*)\\|");
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  @Test
  void everyKeyOfTheSchemaIsDocumentedWithItsDefault() throws IOException {
    JsonObject schema = new JsonObject(Files.readString(ROOT.resolve("docs/agent.schema.json")));
    Map<String, Object> keys = new LinkedHashMap<>();
    walk(schema, schema, "", keys);
    Map<String, String> rows = documentedRows();
    assertThat(rows.keySet()).as("rows of the Agent files table").containsExactlyInAnyOrderElementsOf(keys.keySet());
    keys.forEach((key, defaultValue) -> {
      if (defaultValue != null) {
        String expected = "`" + (defaultValue instanceof String s ? s : String.valueOf(defaultValue)) + "`";
        assertThat(rows.get(key)).as("default of " + key).contains(expected);
      }
    });
  }

  @Test
  void theSchemaInTheJarIsThePublishedOne() throws IOException {
    try (InputStream in = AgentFilesDocsTest.class.getResourceAsStream("/dev/ratchet/server/config/agent.schema.json")) {
      assertThat(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)))
          .isEqualTo(new JsonObject(Files.readString(ROOT.resolve("docs/agent.schema.json"))));
    }
  }

  @Test
  void thePublishedSchemaIsValidJsonSchema202012ForEditors() throws IOException {
    JsonObject schema = new JsonObject(Files.readString(ROOT.resolve("docs/agent.schema.json")));
    assertThat(schema.getString("$schema")).isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(dev.ratchet.connectors.openapi.MetaSchema.problem(schema)).isNull();
  }

  private static void walk(JsonObject root, JsonObject schema, String path, Map<String, Object> keys) {
    if (schema.containsKey("$ref")) {
      String ref = schema.getString("$ref");
      JsonObject target = root.getJsonObject("$defs").getJsonObject(ref.substring(ref.lastIndexOf('/') + 1));
      walk(root, target, path, keys);
    }
    for (String combinator : new String[] {"oneOf", "anyOf", "allOf"}) {
      JsonArray options = schema.getJsonArray(combinator);
      if (options != null) {
        options.forEach(o -> walk(root, (JsonObject) o, path, keys));
      }
    }
    JsonObject properties = schema.getJsonObject("properties");
    if (properties != null) {
      for (String name : properties.fieldNames()) {
        String key = path.isEmpty() ? name : path + "." + name;
        JsonObject sub = properties.getJsonObject(name);
        Object defaultValue = sub.getValue("default");
        if (defaultValue == null && sub.containsKey("$ref")) {
          String ref = sub.getString("$ref");
          defaultValue = root.getJsonObject("$defs").getJsonObject(ref.substring(ref.lastIndexOf('/') + 1))
              .getValue("default");
        }
        keys.putIfAbsent(key, defaultValue instanceof JsonObject || defaultValue instanceof JsonArray
            ? ((defaultValue instanceof JsonObject o) ? o.encode() : ((JsonArray) defaultValue).encode()) : defaultValue);
        walk(root, sub, key, keys);
      }
    }
    if (schema.getValue("items") instanceof JsonObject items) {
      walk(root, items, path + "[]", keys);
    }
    if (schema.getValue("additionalProperties") instanceof JsonObject more) {
      walk(root, more, path + ".<name>", keys);
    }
  }

  private static Map<String, String> documentedRows() throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(ROOT.resolve("docs/CONFIGURATION.md"))) {
      if (line.startsWith("## ")) {
        inSection = line.startsWith("## Agent files");
      } else if (inSection) {
        Matcher m = ROW.matcher(line);
        if (m.find()) {
          rows.put(m.group(1), m.group(2).trim());
        }
      }
    }
    return rows;
  }
}

package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.SchemaErrors;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.SchemaRepository;
import io.vertx.json.schema.Validator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks an input schema against the JSON Schema 2020-12 meta-schema before it is offered: a
 * model, its provider and the engine's own validation all read it as 2020-12, and some providers
 * refuse a whole request over one invalid tool schema.
 */
public final class MetaSchema {

  private static final String BASE = "https://json-schema.org/draft/2020-12/";
  private static final List<String> PARTS = List.of("schema", "meta/core", "meta/applicator", "meta/unevaluated",
      "meta/validation", "meta/meta-data", "meta/format-annotation", "meta/content");
  private static final Validator VALIDATOR = load();
  /** Keywords whose value is a schema, a map of schemas, a list of schemas (2020-12's applicators). */
  private static final Set<String> ONE = Set.of("items", "contains", "additionalProperties", "propertyNames", "if",
      "then", "else", "not", "unevaluatedItems", "unevaluatedProperties", "contentSchema");
  private static final Set<String> NAMED = Set.of("properties", "patternProperties", "$defs", "dependentSchemas");
  private static final Set<String> LISTS = Set.of("prefixItems", "allOf", "anyOf", "oneOf");
  /** Schemas already checked, by their JSON (a digest of it when long), and what was wrong with each; bounded. */
  private static final Map<String, List<Problem>> CHECKED = new LinkedHashMap<>(1024, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Problem>> eldest) {
      return size() > 50_000;
    }
  };

  private MetaSchema() {
  }

  /** Null when {@code schema} is valid JSON Schema 2020-12, otherwise what is wrong and where. */
  public static String problem(JsonObject schema) {
    List<String> problems = new ArrayList<>();
    for (Problem p : remembered(schema, () -> parts(schema))) {
      String text = (p.at().isEmpty() ? "" : "at '" + p.at() + "': ") + p.error();
      if (!problems.contains(text)) {
        problems.add(text);
      }
    }
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /**
   * What is wrong with {@code obj}, at locations relative to it. The meta-schema checks each schema
   * a schema holds against itself ({@code $dynamicRef "#meta"}), so a schema is valid when its own
   * keywords are and each schema it holds is: each is checked on its own, with the schemas it holds
   * standing as {@code {}}, and remembered. The input schemas of one document share most of their
   * parts; checking each whole schema was what made loading slow. A whole input schema is
   * remembered too, so that one checked before is not walked again.
   */
  private static List<Problem> parts(JsonObject obj) {
    List<Problem> found = new ArrayList<>();
    Map<String, Object> shell = new LinkedHashMap<>(obj.getMap());
    for (String key : obj.fieldNames()) {
      Object value = obj.getValue(key);
      if (ONE.contains(key) && value instanceof JsonObject) {
        shell.put(key, held(value, key, null, found));
      } else if (NAMED.contains(key) && value instanceof JsonObject named) {
        Map<String, Object> held = new LinkedHashMap<>();
        for (String name : named.fieldNames()) {
          held.put(name, held(named.getValue(name), key, name, found));
        }
        shell.put(key, new JsonObject(held));
      } else if (LISTS.contains(key) && value instanceof JsonArray list) {
        JsonArray held = new JsonArray();
        for (int i = 0; i < list.size(); i++) {
          held.add(held(list.getValue(i), key, String.valueOf(i), found));
        }
        shell.put(key, held);
      }
    }
    JsonObject own = new JsonObject(shell);
    found.addAll(remembered(own, () -> validate(own)));
    return found.isEmpty() ? List.of() : List.copyOf(found);
  }

  /**
   * An object schema held by another (under {@code keyword}, and {@code name} or index when the
   * keyword holds several) is checked on its own and stands as {@code {}}; other values stay.
   */
  private static Object held(Object value, String keyword, String name, List<Problem> found) {
    if (!(value instanceof JsonObject held)) {
      return value;
    }
    for (Problem p : parts(held)) {
      String location = "/" + escape(keyword) + (name == null ? "" : "/" + escape(name));
      found.add(new Problem(location + p.at(), p.error()));
    }
    return new JsonObject();
  }

  private static List<Problem> remembered(Object schema, Supplier<List<Problem>> check) {
    String json = Json.encode(schema);
    String key = json.length() <= 200 ? json : digest(json);
    List<Problem> found;
    synchronized (CHECKED) {
      found = CHECKED.get(key);
    }
    if (found == null) {
      found = check.get();
      synchronized (CHECKED) {
        CHECKED.put(key, found);
      }
    }
    return found;
  }

  private static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }

  private static List<Problem> validate(Object schema) {
    OutputUnit out;
    synchronized (VALIDATOR) {
      out = VALIDATOR.validate(schema);
    }
    if (Boolean.TRUE.equals(out.getValid())) {
      return List.of();
    }
    List<Problem> problems = new ArrayList<>();
    for (OutputUnit e : SchemaErrors.mostSpecific(out.getErrors() == null || out.getErrors().isEmpty()
        ? List.of(out) : out.getErrors())) {
      problems.add(new Problem(e.getInstanceLocation() == null ? "" : e.getInstanceLocation().replaceFirst("^#", ""),
          e.getError()));
    }
    return List.copyOf(problems);
  }

  private static String digest(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }

  /** What is wrong at a location (a JSON Pointer, empty for the top) of the schema checked. */
  private record Problem(String at, String error) {
  }

  // the meta-schema ships inside vertx-json-schema; reading it from the class path needs no Vert.x
  private static Validator load() {
    JsonSchemaOptions options = new JsonSchemaOptions().setDraft(Draft.DRAFT202012).setBaseUri(BASE)
        .setOutputFormat(OutputFormat.Basic);
    SchemaRepository repository = SchemaRepository.create(options);
    for (String part : PARTS) {
      String resource = "json-schema.org/draft/2020-12/" + part;
      try (InputStream in = JsonSchema.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("the JSON Schema 2020-12 meta-schema is missing from the class path ("
              + resource + ")");
        }
        repository.dereference(BASE + part, JsonSchema.of(new JsonObject(new String(in.readAllBytes(),
            StandardCharsets.UTF_8))));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return repository.validator(BASE + "schema");
  }
}

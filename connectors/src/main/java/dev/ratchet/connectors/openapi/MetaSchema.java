package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.impl.SchemaErrors;
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
import java.util.ArrayList;
import java.util.List;

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

  private MetaSchema() {
  }

  /** Null when {@code schema} is valid JSON Schema 2020-12, otherwise what is wrong and where. */
  public static String problem(JsonObject schema) {
    OutputUnit out;
    synchronized (VALIDATOR) {
      out = VALIDATOR.validate(schema);
    }
    if (Boolean.TRUE.equals(out.getValid())) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    for (OutputUnit e : SchemaErrors.mostSpecific(out.getErrors() == null || out.getErrors().isEmpty()
        ? List.of(out) : out.getErrors())) {
      String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().replaceFirst("^#", "");
      String p = (at.isEmpty() ? "" : "at '" + at + "': ") + e.getError();
      if (!problems.contains(p)) {
        problems.add(p);
      }
    }
    return String.join("; ", problems);
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

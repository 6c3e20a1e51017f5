package dev.ratchet.connectors.impl;

import dev.ratchet.connectors.SchemaErrors;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks arguments against an operation's input schema before anything is sent. The engine does
 * this too; doing it here keeps an operation safe when it is called directly.
 */
public final class ArgumentValidator {

  private final Validator validator;

  public ArgumentValidator(JsonObject schema) {
    this.validator = Validator.create(JsonSchema.of(schema.copy()), new JsonSchemaOptions()
        .setDraft(Draft.DRAFT202012).setBaseUri("https://ratchet.dev/tools/").setOutputFormat(OutputFormat.Basic));
  }

  /** Null when the arguments are valid, otherwise which field is wrong and why. */
  public String problem(JsonObject arguments) {
    OutputUnit out = validator.validate(arguments == null ? new JsonObject() : arguments);
    if (Boolean.TRUE.equals(out.getValid())) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    List<OutputUnit> errors = SchemaErrors.mostSpecific(
        out.getErrors() == null || out.getErrors().isEmpty() ? List.of(out) : out.getErrors());
    for (OutputUnit e : errors) {
      String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().replaceFirst("^#", "");
      String p = (at.isEmpty() || at.equals("/") ? "" : "field '" + at.substring(1).replace('/', '.') + "': ")
          + SchemaErrors.humanize(e.getError());
      if (!problems.contains(p)) {
        problems.add(p);
      }
    }
    return String.join("; ", problems);
  }
}

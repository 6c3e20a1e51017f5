package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The message a model gets for invalid arguments names the real problem, once, for each field. */
class ArgumentErrorMessagesTest {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type": "object", "additionalProperties": false, "required": ["petId"],
       "properties": {
         "petId": {"type": "integer"},
         "body": {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "number"}}}}}
      """);

  private final ArgumentsValidator validator = new ArgumentsValidator(SCHEMA);

  @Test
  void aDeclaredPropertyWithAWrongValueIsNotReportedAsAnUnknownField() {
    String problems = validator.problems(new JsonObject().put("petId", "x").put("body", new JsonObject()));

    assertThat(problems).contains("field 'petId'").contains("Expected integer")
        .contains("field 'body'").contains("\"amount\"")
        .doesNotContain("additional properties").doesNotContain("does not match schema")
        .doesNotContain("not a known field");
  }

  @Test
  void aNestedProblemIsReportedAtItsOwnFieldOnly() {
    String problems = validator.problems(new JsonObject().put("petId", 1)
        .put("body", new JsonObject().put("amount", "a")));

    assertThat(problems).isEqualTo("invalid arguments: field 'body.amount': Instance type string is invalid."
        + " Expected number");
  }

  @Test
  void anUndeclaredPropertyIsReportedAsUnknown() {
    String problems = validator.problems(new JsonObject().put("petId", 1).put("extra", 2));

    assertThat(problems).isEqualTo("invalid arguments: field 'extra': is not a known field; the schema allows no"
        + " other fields");
  }
}

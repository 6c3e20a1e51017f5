package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meta-schema check finds what is wrong however deep in an input schema it is, and says where,
 * including in parts that another input schema checked before shares.
 */
class MetaSchemaTest {

  @Test
  void aProblemDeepInsideNestedSchemasIsFoundWithItsLocation() {
    JsonObject schema = new JsonObject("""
        {"type": "object", "properties": {"a": {"type": "array", "items": {"allOf": [{"type": "string"},
          {"minLength": -1}]}}}, "$defs": {"N~a/me": {"anyOf": [{"properties": {"x": {"type": 7}}}]}}}
        """);

    String problem = MetaSchema.problem(schema);

    assertThat(problem).contains("at '/properties/a/items/allOf/1/minLength'")
        .contains("at '/$defs/N~0a~1me/anyOf/0/properties/x/type'");
  }

  @Test
  void aSharedPartCheckedBeforeIsJudgedTheSameInEverySchemaThatHoldsIt() {
    JsonObject bad = new JsonObject().put("type", "object").put("required", "not a list");
    JsonObject first = new JsonObject().put("type", "object").put("properties", new JsonObject().put("body", bad));
    JsonObject second = new JsonObject().put("type", "object").put("$defs", new JsonObject().put("Body", bad.copy()));

    assertThat(MetaSchema.problem(first)).contains("at '/properties/body/required'");
    assertThat(MetaSchema.problem(second)).contains("at '/$defs/Body/required'");
    assertThat(MetaSchema.problem(new JsonObject().put("type", "object").put("$defs",
        new JsonObject().put("Body", new JsonObject().put("type", "object"))))).isNull();
  }

  @Test
  void aSchemaWhoseOwnKeywordIsWrongIsReportedAtTheTop() {
    assertThat(MetaSchema.problem(new JsonObject().put("type", "objekt").put("properties", new JsonObject()
        .put("a", new JsonObject().put("type", "string"))))).isNotNull().doesNotContain("/properties/a");
  }
}

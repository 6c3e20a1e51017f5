package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.Validator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class SchemaSubsetTest {

  private static final String[] TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"};
  private static final Object[] SCALARS = {"", "a", "late", "damaged", "\ud83d\ude00\ud83d\ude00", "x".repeat(12), 0, 1, -3,
      40L, 7_000_000_000L, 1.0, 2.5, -0.5, true, false, null};

  private final Random random = new Random(42);

  @Test
  void argumentsTheSubsetCallsValidAreValidForTheFullValidatorToo() {
    for (Draft draft : List.of(Draft.DRAFT202012, Draft.DRAFT7)) {
      int fullValid = 0;
      int directlyValid = 0;
      for (int round = 0; round < 1500; round++) {
        JsonObject schema = objectSchema(0);
        SchemaSubset.Check subset = SchemaSubset.compile(schema);
        assertThat(subset).as("a schema of the subset compiles: %s", schema).isNotNull();
        Validator full = Validator.create(JsonSchema.of(schema), new JsonSchemaOptions().setDraft(draft)
            .setBaseUri("https://ratchet.dev/schemas/").setOutputFormat(OutputFormat.Basic));
        for (int i = 0; i < 8; i++) {
          Object instance = random.nextInt(3) == 0 ? anyValue(0) : instanceOf(schema, 0);
          boolean valid = Boolean.TRUE.equals(full.validate(instance).getValid());
          boolean direct = subset.certainlyValid(instance);
          if (direct) {
            assertThat(valid).as("%s against %s (%s)", instance, schema, draft).isTrue();
            directlyValid++;
          }
          if (valid) {
            fullValid++;
          }
        }
      }
      // most valid arguments never reach the full validator
      assertThat(directlyValid).as("%s: valid %d, of which recognised directly %d", draft, fullValid, directlyValid)
          .isGreaterThan(fullValid * 3 / 4);
    }
  }

  @Test
  void schemasWithKeywordsOutsideTheSubsetAreLeftToTheFullValidator() {
    assertThat(SchemaSubset.compile(new JsonObject().put("type", "object").put("properties", new JsonObject()
        .put("id", new JsonObject().put("type", "string").put("pattern", "^A-"))))).isNull();
    assertThat(SchemaSubset.compile(new JsonObject().put("anyOf", new JsonArray()))).isNull();
    assertThat(SchemaSubset.compile(new JsonObject().put("properties", new JsonObject()
        .put("at", new JsonObject().put("type", "string").put("format", "date-time"))))).isNull();
    assertThat(SchemaSubset.compile(new JsonObject().put("$ref", "#/$defs/x"))).isNull();
    assertThat(SchemaSubset.compile(new JsonObject().put("items", new JsonArray().add(new JsonObject())))).isNull();
  }

  @Test
  void aToolSchemaOfTheUsualShapeIsCheckedDirectlyAndProblemsStillComeWordedFromTheFullValidator() {
    ArgumentsValidator refund = new ArgumentsValidator(new JsonObject()
        .put("$schema", "https://json-schema.org/draft/2020-12/schema").put("type", "object")
        .put("properties", new JsonObject()
            .put("orderId", new JsonObject().put("type", "string").put("description", "the order"))
            .put("amount", new JsonObject().put("type", "integer").put("minimum", 1))
            .put("reason", new JsonObject().put("enum", new JsonArray().add("damaged").add("late"))))
        .put("required", new JsonArray().add("orderId").add("amount")).put("additionalProperties", false));
    assertThat(refund.checksDirectly()).isTrue();
    assertThat(refund.problems(new JsonObject().put("orderId", "A-1").put("amount", 40).put("reason", "late"))).isNull();
    assertThat(refund.problems(new JsonObject().put("orderId", "A-1").put("amount", 0)))
        .startsWith("invalid arguments: ").contains("amount");
    assertThat(refund.problems(new JsonObject().put("orderId", "A-1"))).contains("amount");
    assertThat(refund.problems(new JsonObject().put("orderId", "A-1").put("amount", 4).put("note", "x")))
        .startsWith("invalid arguments: ");
    // a fraction is left to the full validator, which counts 40.0 as an integer
    assertThat(refund.problems(new JsonObject().put("orderId", "A-1").put("amount", 40.0))).isNull();
  }

  private JsonObject objectSchema(int depth) {
    JsonObject s = new JsonObject().put("type", "object");
    JsonObject props = new JsonObject();
    int n = random.nextInt(4);
    JsonArray required = new JsonArray();
    for (int i = 0; i < n; i++) {
      String name = "p" + i;
      props.put(name, anySchema(depth + 1));
      if (random.nextBoolean()) {
        required.add(name);
      }
    }
    s.put("properties", props);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    switch (random.nextInt(4)) {
      case 0:
        s.put("additionalProperties", false);
        break;
      case 1:
        s.put("additionalProperties", anySchema(depth + 1));
        break;
      default:
        break;
    }
    if (random.nextInt(5) == 0) {
      s.put(random.nextBoolean() ? "minProperties" : "maxProperties", random.nextInt(3));
    }
    if (random.nextInt(4) == 0) {
      s.put("description", "d");
    }
    return s;
  }

  private Object anySchema(int depth) {
    if (random.nextInt(12) == 0) {
      return random.nextBoolean();
    }
    if (depth < 3 && random.nextInt(4) == 0) {
      return objectSchema(depth);
    }
    JsonObject s = new JsonObject();
    String type = TYPES[random.nextInt(TYPES.length)];
    if (random.nextInt(5) == 0) {
      s.put("type", new JsonArray().add(type).add(TYPES[random.nextInt(TYPES.length)]));
    } else if (random.nextInt(6) != 0) {
      s.put("type", type);
    }
    switch (random.nextInt(7)) {
      case 0: {
        JsonArray values = new JsonArray();
        for (int i = 0; i < 3; i++) {
          values.add(SCALARS[random.nextInt(SCALARS.length)]);
        }
        s.put("enum", values);
        break;
      }
      case 1:
        s.put("const", SCALARS[random.nextInt(SCALARS.length)]);
        break;
      case 2:
        s.put(random.nextBoolean() ? "minLength" : "maxLength", random.nextInt(5));
        break;
      case 3:
        s.put(new String[] {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}[random.nextInt(4)],
            random.nextBoolean() ? (Object) (random.nextInt(80) - 20) : (Object) (random.nextInt(80) / 2.0));
        break;
      case 4:
        if (depth < 3) {
          s.put("items", anySchema(depth + 1));
        }
        s.put(random.nextBoolean() ? "minItems" : "maxItems", random.nextInt(3));
        break;
      default:
        break;
    }
    return s;
  }

  /** A value meant to fit the schema, though it often does not quite. */
  private Object instanceOf(Object schema, int depth) {
    if (!(schema instanceof JsonObject) || depth > 4) {
      return anyValue(depth);
    }
    JsonObject s = (JsonObject) schema;
    if (s.containsKey("enum") && random.nextInt(4) != 0) {
      JsonArray values = s.getJsonArray("enum");
      return values.getValue(random.nextInt(values.size()));
    }
    if (s.containsKey("const") && random.nextInt(4) != 0) {
      return s.getValue("const");
    }
    Object type = s.getValue("type");
    String t = type instanceof String ? (String) type : type instanceof JsonArray
        ? ((JsonArray) type).getString(random.nextInt(((JsonArray) type).size())) : TYPES[random.nextInt(TYPES.length)];
    switch (t) {
      case "object": {
        JsonObject o = new JsonObject();
        JsonObject props = s.getJsonObject("properties", new JsonObject());
        for (String name : props.fieldNames()) {
          if (random.nextInt(5) != 0) {
            o.put(name, instanceOf(props.getValue(name), depth + 1));
          }
        }
        if (random.nextInt(5) == 0) {
          o.put("extra", anyValue(depth + 1));
        }
        return o;
      }
      case "array": {
        JsonArray a = new JsonArray();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          a.add(instanceOf(s.getValue("items"), depth + 1));
        }
        return a;
      }
      case "integer":
        return random.nextInt(6) == 0 ? (Object) (long) (random.nextInt(100) - 30) : (Object) (random.nextInt(100) - 30);
      case "number":
        return random.nextBoolean() ? (Object) (random.nextInt(100) - 30) : (Object) (random.nextInt(200) / 4.0);
      case "string":
        return SCALARS[random.nextInt(6)];
      case "boolean":
        return random.nextBoolean();
      default:
        return null;
    }
  }

  private Object anyValue(int depth) {
    int pick = random.nextInt(depth < 3 ? 10 : 8);
    if (pick < 8) {
      return SCALARS[random.nextInt(SCALARS.length)];
    }
    if (pick == 8) {
      List<Object> list = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        list.add(anyValue(depth + 1));
      }
      return new JsonArray(list);
    }
    JsonObject o = new JsonObject();
    for (int i = random.nextInt(3); i > 0; i--) {
      o.put("p" + random.nextInt(4), anyValue(depth + 1));
    }
    return o;
  }
}

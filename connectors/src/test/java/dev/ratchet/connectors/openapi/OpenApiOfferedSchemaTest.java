package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.connectors.OpenApiWarning;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.SchemaRepository;
import io.vertx.json.schema.Validator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every input schema offered from an OpenAPI 3.1 document is valid JSON Schema 2020-12 and free
 * of the document's vendor extensions; recursion through {@code $recursiveRef} is offered through
 * {@code $defs}, and a very large schema is offered with a warning giving its size.
 */
class OpenApiOfferedSchemaTest {

  Vertx vertx;
  OpenApiConnector shop;
  Validator metaSchema;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    shop = OpenApiConnector.parse(vertx, "shop", document().encode(), "shop.json", Connection.of("shop", "openapi",
        new JsonObject().put("baseUrl", "http://127.0.0.1:9"), Map.of()));
    JsonSchemaOptions options = new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
        .setBaseUri("https://json-schema.org/draft/2020-12/").setOutputFormat(OutputFormat.Basic);
    metaSchema = SchemaRepository.create(options).preloadMetaSchema(vertx.fileSystem())
        .validator("https://json-schema.org/draft/2020-12/schema");
  }

  @AfterEach
  void tearDown() {
    shop.close();
    await(vertx.close());
  }

  /** A 3.1 document like the large public ones: vendor keys, a recursive filter and a huge catalogue schema. */
  private static JsonObject document() {
    JsonObject fields = new JsonObject();
    for (int i = 0; i < 1500; i++) {
      fields.put("field" + i, new JsonObject().put("type", "string").put("x-oaiMeta", new JsonObject().put("n", i))
          .put("description", "The catalogue's field number " + i + ", as the merchant named it in the back office"));
    }
    JsonObject schemas = new JsonObject()
        .put("Pet", new JsonObject().put("type", "object").put("x-stainless-naming", "pet").put("required",
            new JsonArray().add("name")).put("properties", new JsonObject()
            .put("name", new JsonObject().put("type", "string").put("x-oaiTypeLabel", "string"))
            .put("x-tag", new JsonObject().put("type", "string").put("description", "a property named like a vendor key"))))
        .put("CompoundFilter", new JsonObject().put("$recursiveAnchor", true).put("type", "object")
            .put("properties", new JsonObject().put("filters", new JsonObject().put("type", "array").put("items",
                new JsonObject().put("anyOf", new JsonArray().add(new JsonObject().put("type", "string"))
                    .add(new JsonObject().put("$recursiveRef", "#")))))));
    JsonObject paths = new JsonObject()
        .put("/pets", new JsonObject()
            .put("get", new JsonObject().put("operationId", "listPets").put("x-code-samples", new JsonArray())
                .put("parameters", new JsonArray().add(new JsonObject().put("name", "limit").put("in", "query")
                    .put("schema", new JsonObject().put("type", "integer").put("x-go-type", "int32")))))
            .put("post", new JsonObject().put("operationId", "createPet").put("requestBody", body("#/components/schemas/Pet"))))
        .put("/filters", new JsonObject().put("post", new JsonObject().put("operationId", "createFilter")
            .put("requestBody", body("#/components/schemas/CompoundFilter"))))
        .put("/legacy", new JsonObject().put("post", new JsonObject().put("operationId", "uploadLegacy")
            .put("requestBody", new JsonObject().put("content", new JsonObject().put("application/json",
                new JsonObject().put("schema", new JsonObject().put("type", "object").put("properties",
                    new JsonObject().put("file", new JsonObject().put("type", "file")))))))))
        .put("/catalog", new JsonObject().put("put", new JsonObject().put("operationId", "replaceCatalog")
            .put("requestBody", new JsonObject().put("content", new JsonObject().put("application/json",
                new JsonObject().put("schema", new JsonObject().put("type", "object").put("properties", fields)))))));
    return new JsonObject().put("openapi", "3.1.0").put("info", new JsonObject().put("title", "Shop").put("version", "1"))
        .put("paths", paths).put("components", new JsonObject().put("schemas", schemas));
  }

  private static JsonObject body(String ref) {
    return new JsonObject().put("required", true).put("content", new JsonObject().put("application/json",
        new JsonObject().put("schema", new JsonObject().put("$ref", ref))));
  }

  private List<String> offered() {
    List<String> offered = new ArrayList<>();
    for (String name : shop.operationIds()) {
      try {
        shop.operation(name);
        offered.add(name);
      } catch (IllegalArgumentException notOffered) {
        // listed in warnings(); checked below
      }
    }
    return offered;
  }

  @Test
  void everyOfferedSchemaIsValidJsonSchema2020() {
    List<String> offered = offered();

    assertThat(shop.warnings()).anySatisfy(w -> {
      assertThat(w.operationId()).isEqualTo("uploadLegacy");
      assertThat(w.message()).contains("not valid JSON Schema 2020-12").contains("/properties/body/properties/file");
    });
    assertThat(offered).containsExactlyInAnyOrder("listPets", "createPet", "createFilter", "replaceCatalog");
    for (String name : offered) {
      OutputUnit result = metaSchema.validate(shop.operation(name).definition().inputSchema());
      assertThat(result.getValid()).as(name + ": " + result.getErrors()).isTrue();
    }
  }

  @Test
  void offeredSchemasCarryNoVendorKeysButKeepPropertiesNamedLikeThem() {
    for (String name : offered()) {
      JsonObject schema = shop.operation(name).definition().inputSchema();
      assertThat(vendorKeys(schema, name)).as(name).isEmpty();
    }
    JsonObject pet = shop.operation("createPet").definition().inputSchema().getJsonObject("properties")
        .getJsonObject("body");
    assertThat(pet.getJsonObject("properties").fieldNames()).containsExactlyInAnyOrder("name", "x-tag");
  }

  @Test
  void recursionThroughRecursiveRefIsOfferedAsARefIntoDefs() {
    assertThat(shop.warnings()).noneMatch(w -> "createFilter".equals(w.operationId()));
    JsonObject input = shop.operation("createFilter").definition().inputSchema();
    JsonObject filter = input.getJsonObject("$defs").getJsonObject("CompoundFilter");
    assertThat(filter.getJsonObject("properties").getJsonObject("filters").getJsonObject("items")
        .getJsonArray("anyOf").getJsonObject(1)).isEqualTo(new JsonObject().put("$ref", "#/$defs/CompoundFilter"));
    assertThat(input.encode()).doesNotContain("$recursive");
  }

  @Test
  void anOversizeSchemaIsOfferedWithAWarningGivingItsSize() {
    int size = shop.operation("replaceCatalog").definition().inputSchema().encode().length();

    assertThat(size).isGreaterThan(100_000);
    OpenApiWarning warning = shop.warnings().stream().filter(w -> "replaceCatalog".equals(w.operationId()))
        .findFirst().orElseThrow();
    assertThat(warning.offered()).isTrue();
    assertThat(warning.message()).contains(size + " bytes").contains("100 KB");
  }

  /** The schema keywords starting with {@code x-}: property names are data, not keywords. */
  private static List<String> vendorKeys(Object node, String at) {
    List<String> found = new ArrayList<>();
    if (node instanceof JsonArray arr) {
      for (int i = 0; i < arr.size(); i++) {
        found.addAll(vendorKeys(arr.getValue(i), at + "/" + i));
      }
    } else if (node instanceof JsonObject obj) {
      for (String key : obj.fieldNames()) {
        if (key.startsWith("x-")) {
          found.add(at + "/" + key);
        } else if (key.equals("properties") && obj.getValue(key) instanceof JsonObject props) {
          props.forEach(e -> found.addAll(vendorKeys(e.getValue(), at + "/properties/" + e.getKey())));
        } else if (!key.equals("enum") && !key.equals("const") && !key.equals("default") && !key.equals("examples")) {
          found.addAll(vendorKeys(obj.getValue(key), at + "/" + key));
        }
      }
    }
    return found;
  }
}

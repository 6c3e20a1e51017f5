package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCatalog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

class ToolSchemaUntouchedTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  /** A schema outside the validator's direct subset (a pattern, a nested object, a $ref), so the full validator runs. */
  private static JsonObject schema() {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject()
            .put("orderId", new JsonObject().put("type", "string").put("pattern", "^A-"))
            .put("address", new JsonObject().put("$ref", "#/$defs/address")))
        .put("required", new JsonArray().add("orderId"))
        .put("$defs", new JsonObject().put("address", new JsonObject().put("type", "object")
            .put("properties", new JsonObject().put("city", new JsonObject().put("type", "string")))));
  }

  @Test
  void theCatalogueShowsTheToolsSchemaByteForByteAfterRegistrationAndValidation() {
    JsonObject declared = schema();
    String original = declared.encode();
    FunctionToolSource tools = FunctionToolSource.create("fns").tool(FunctionToolSource.define("refund",
        EffectClass.READ).schema(declared).handler(inv -> Future.succeededFuture("ok")));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(tools).build()));
    ToolCatalog.Entry entry = catalog.get("refund");
    assertThat(entry.validator().problems(new JsonObject().put("orderId", "B-1"))).contains("orderId");
    assertThat(entry.validator().problems(new JsonObject().put("orderId", "A-1")
        .put("address", new JsonObject().put("city", 3)))).contains("city");

    assertThat(entry.tool().inputSchema().encode()).isEqualTo(original);
    assertThat(entry.toJson().getJsonObject("inputSchema").encode()).isEqualTo(original).doesNotContain("__");
  }
}

package dev.ratchet.connectors;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.failure;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectorToolSourceTest {

  Vertx vertx;
  SlackConnector slack;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    slack = SlackConnector.connect(vertx, Connection.of("support-slack", "slack",
        new JsonObject().put("baseUrl", "http://127.0.0.1:9/api"), Map.of("botToken", Secret.of("xoxb-t"))));
  }

  @AfterEach
  void tearDown() {
    slack.close();
    await(vertx.close());
  }

  /** A connector whose operations answer from a fixed branch, to exercise the manifest's rules without HTTP. */
  static ConnectorOperation fixed(ConnectorManifest manifest, String name, ToolResult result, AtomicInteger runs) {
    return new ConnectorOperation() {
      public ConnectorManifest manifest() {
        return manifest;
      }

      public OperationDefinition definition() {
        return manifest.operation(name);
      }

      public String connectionName() {
        return "shop-prod";
      }

      public Future<ToolResult> execute(ToolInvocation invocation) {
        runs.incrementAndGet();
        return Future.succeededFuture(result);
      }
    };
  }

  static ConnectorManifest shop() {
    JsonObject schema = new JsonObject().put("type", "object").put("properties",
        new JsonObject().put("amount", new JsonObject().put("type", "number"))).put("required",
        new JsonArray().add("amount"));
    return ConnectorManifest.fromJson(new JsonObject().put("connector", "shop").put("version", "1").put("operations",
        new JsonArray()
            .add(new JsonObject().put("name", "refundOrder").put("kind", "mutation").put("description", "Refund")
                .put("inputSchema", schema).put("agent", new JsonObject().put("exposed", true)
                    .put("approval", "recommended").put("branches", new JsonObject().put("already_refunded", "succeeded"))))
            .add(new JsonObject().put("name", "deleteShop").put("kind", "mutation").put("description", "Delete")
                .put("inputSchema", new JsonObject().put("type", "object")))
            .add(new JsonObject().put("name", "getOrder").put("kind", "query").put("description", "Get")
                .put("inputSchema", new JsonObject().put("type", "object")).put("agent",
                    new JsonObject().put("exposed", true)))), "shop-manifest.json");
  }

  private Tool only(ConnectorToolSource source) {
    List<Tool> tools = await(source.tools(vertx));
    assertThat(tools).hasSize(1);
    return tools.get(0);
  }

  @Test
  void nothingIsOfferedUnlessNamed() {
    assertThat(await(ConnectorToolSource.of().tools(vertx))).isEmpty();
  }

  @Test
  void namedOperationBecomesAToolWithManifestNameDescriptionSchemaAndEffectClass() {
    Tool tool = only(ConnectorToolSource.of(connectorTool(slack.postThreadReply())));
    OperationDefinition def = SlackConnector.manifest().operation("postThreadReply");
    assertThat(tool.name()).isEqualTo("slack_post_thread_reply");
    assertThat(tool.description()).isEqualTo(def.description());
    assertThat(tool.inputSchema()).isEqualTo(def.inputSchema());
    assertThat(tool.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(tool.retryPolicy()).isEqualTo(RetryPolicy.NONE);
    assertThat(tool.source()).isEqualTo("connector:slack/support-slack");
    assertThat(tool.supportsLookup()).isTrue();
    assertThat(only(ConnectorToolSource.of(connectorTool(slack.addReaction()))).effectClass())
        .isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(only(ConnectorToolSource.of(connectorTool(slack.listThreadMessages()))).effectClass())
        .isEqualTo(EffectClass.READ);
  }

  @Test
  void operationNotExposedByItsManifestFailsWhenTheAgentIsDefined() {
    ConnectorOperation hidden = fixed(shop(), "deleteShop", ToolResult.success(null), new AtomicInteger());
    assertThatThrownBy(() -> ConnectorToolSource.of(connectorTool(hidden)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connector 'shop'").hasMessageContaining("operation 'deleteShop'")
        .hasMessageContaining("agent.exposed");
  }

  @Test
  void sameOperationNamedTwiceIsRefused() {
    assertThatThrownBy(() -> ConnectorToolSource.of(connectorTool(slack.postThreadReply()),
        connectorTool(slack.postThreadReply()))).hasMessageContaining("slack_post_thread_reply");
  }

  @Test
  void approvalFollowsTheManifestUnlessTheApplicationOverrides() {
    ConnectorManifest shop = shop();
    AtomicInteger runs = new AtomicInteger();
    ConnectorOperation refund = fixed(shop, "refundOrder", ToolResult.success(null), runs);
    JsonObject small = new JsonObject().put("amount", 5);
    JsonObject big = new JsonObject().put("amount", 500);

    Tool byManifest = only(ConnectorToolSource.of(connectorTool(refund)));
    assertThat(byManifest.approvalRule().reasonToAsk(small)).isNotNull();
    assertThat(byManifest.approvalRule().source()).isEqualTo("manifest");

    assertThat(only(ConnectorToolSource.of(connectorTool(slack.postThreadReply()))).approvalRule().isNever())
        .isTrue();

    Tool waived = only(ConnectorToolSource.of(connectorTool(refund).requireApproval(false)));
    assertThat(waived.approvalRule().reasonToAsk(big)).isNull();

    Tool forced = only(ConnectorToolSource.of(connectorTool(slack.postThreadReply()).requireApproval(true)));
    assertThat(forced.approvalRule().reasonToAsk(small)).isNotNull();
    assertThat(forced.approvalRule().source()).isEqualTo("policy");

    Tool predicate = only(ConnectorToolSource.of(connectorTool(refund)
        .requireApprovalWhen(args -> args.getDouble("amount") > 100)));
    assertThat(predicate.approvalRule().reasonToAsk(small)).isNull();
    assertThat(predicate.approvalRule().reasonToAsk(big)).isNotNull();
    assertThat(predicate.approvalRule().source()).isEqualTo("predicate");
    // a predicate that throws asks
    assertThat(predicate.approvalRule().reasonToAsk(new JsonObject())).isNotNull();
    // approval never changes the effect class
    assertThat(predicate.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
  }

  @Test
  void branchOutcomeComesFromTheManifest() {
    ConnectorManifest shop = shop();
    JsonObject args = new JsonObject().put("amount", 5);
    Tool already = only(ConnectorToolSource.of(connectorTool(fixed(shop, "refundOrder",
        ToolResult.success(new JsonObject()).withBranch("already_refunded"), new AtomicInteger()))));
    assertThat(await(already.invoke(invocation("t1", 0, args))).outcome()).isEqualTo(Outcome.SUCCEEDED);

    Tool locked = only(ConnectorToolSource.of(connectorTool(fixed(shop, "refundOrder",
        ToolResult.rejected("order is locked").withBranch("order_locked"), new AtomicInteger()))));
    ToolResult lockedResult = await(locked.invoke(invocation("t1", 0, args)));
    assertThat(lockedResult.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(lockedResult.branch()).isEqualTo("order_locked");

    Tool query = only(ConnectorToolSource.of(connectorTool(fixed(shop, "getOrder",
        ToolResult.rejected("gone").withBranch("not_found"), new AtomicInteger()))));
    assertThat(await(query.invoke(invocation("t1", 0, new JsonObject()))).outcome()).isEqualTo(Outcome.FAILED);
  }

  @Test
  void invalidArgumentsAreRefusedBeforeTheOperationRuns() {
    AtomicInteger runs = new AtomicInteger();
    Tool tool = only(ConnectorToolSource.of(connectorTool(fixed(shop(), "refundOrder", ToolResult.success(null),
        runs))));
    Throwable t = failure(tool.invoke(invocation("t1", 0, new JsonObject().put("amount", "lots"))));
    assertThat(t).isInstanceOf(ToolNotSentException.class).hasMessageContaining("shop_refund_order")
        .hasMessageContaining("field 'amount'");
    assertThat(runs).hasValue(0);
  }
}

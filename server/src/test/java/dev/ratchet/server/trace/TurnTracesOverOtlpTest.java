package dev.ratchet.server.trace;

import dev.ratchet.server.RunApi;
import dev.ratchet.server.RunChild;
import dev.ratchet.server.RunChildFixture;
import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.server.trace.OtlpReceiver.Received;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run} with the standard OTEL_* variables pointing at a local OTLP/HTTP collector:
 * the spans of a turn of two reads and an approved write arrive as protobuf, in one tree, under
 * the OpenTelemetry names for generative AI; a caller's {@code traceparent} reaches the provider
 * (over HTTP, OpenAPI and MCP alike) and survives a kill -9 of the runtime.
 */
class TurnTracesOverOtlpTest extends RunChildFixture {

  private static final String TOKEN = "rt_trace-test-token-0123456789";
  private static final String PASSWORD = "trace-test-password";
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
  /** An order id the provider answers with 500, every time. */
  private static final String FAILING = "5000";

  private final RunApi api = new RunApi(run);
  private final OtlpReceiver collector = new OtlpReceiver();
  private final McpHttpProvider mcp = new McpHttpProvider();
  /** The {@code traceparent} of each request the provider received, by path. */
  private final List<String[]> providerRequests = new CopyOnWriteArrayList<>();

  TurnTracesOverOtlpTest() {
    super(TOKEN, PASSWORD);
  }

  @Test
  void aTurnOfTwoReadsAndAnApprovedWriteArrivesAsOneSpanTreeWithGenAiNames() throws Exception {
    start();
    String csrf = api.login();
    submit("s-1", "t1", Map.of());
    api.approve(api.awaitApproval("s-1", 60), csrf, "checked");
    assertThat(outcomes(result("s-1", "t1"))).containsExactly("succeeded", "succeeded", "succeeded");

    Received turn = awaitSpan("ratchet.turn", "t1");
    assertThat(turn.resource()).containsEntry("service.name", "ratchet-under-test");
    assertThat(turn.attribute("ratchet.session.id")).isEqualTo("s-1");
    assertThat(turn.attribute("gen_ai.conversation.id")).isEqualTo("s-1");
    assertThat(turn.attribute("ratchet.turn.calls")).isEqualTo("3");
    assertThat(turn.span().getParentSpanId().isEmpty()).isTrue();
    assertThat(collector.contentTypes()).allMatch("application/x-protobuf"::equals);

    List<Received> calls = children(turn);
    assertThat(calls).extracting(Received::name).containsExactlyInAnyOrder("execute_tool orders_get_order",
        "execute_tool orders_get_order", "execute_tool orders_cancel_order");
    for (Received call : calls) {
      assertThat(call.traceId()).isEqualTo(turn.traceId());
      assertThat(call.span().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_INTERNAL);
      assertThat(call.attribute("gen_ai.operation.name")).isEqualTo("execute_tool");
      assertThat(call.attribute("gen_ai.tool.type")).isEqualTo("function");
      assertThat(call.attribute("gen_ai.tool.name")).isEqualTo(call.name().substring("execute_tool ".length()));
      assertThat(call.attribute("gen_ai.tool.call.id")).isEqualTo(call.attribute("ratchet.call.id")).isNotBlank();
      assertThat(call.attribute("ratchet.outcome")).isEqualTo("succeeded");
      assertThat(call.attribute("ratchet.attempts")).isEqualTo("1");
    }
    Received write = calls.stream().filter(c -> c.name().endsWith("cancel_order")).findFirst().orElseThrow();
    assertThat(write.attribute("ratchet.effect_class")).isNotEqualTo("read");
    assertThat(write.attribute("ratchet.approval.approver")).isEqualTo("admin");
    assertThat(calls.stream().filter(c -> c.name().endsWith("get_order")))
        .allMatch(c -> "read".equals(c.attribute("ratchet.effect_class")));

    // the approval wait is a span under the write's, saying who decided
    Received approval = awaitChild(write, "ratchet.approval orders_cancel_order");
    assertThat(approval.attribute("ratchet.approval.status")).isEqualTo("approved");
    assertThat(approval.attribute("ratchet.approval.approver")).isEqualTo("admin");
    assertThat(approval.span().getEndTimeUnixNano()).isLessThanOrEqualTo(write.span().getEndTimeUnixNano());

    // each request to the provider carries the traceparent of its call's span
    for (Received call : calls) {
      assertThat(providerRequests).anyMatch(r -> r[1] != null
          && r[1].startsWith("00-" + call.traceId() + "-" + call.spanId() + "-"));
    }
  }

  @Test
  void aCallersTraceparentReachesTheProviderAndTheTurnResumedAfterAKillNineStaysInThatTrace() throws Exception {
    start();
    String csrf = api.login();
    submit("s-2", "t2", Map.of("traceparent", TRACEPARENT));
    api.awaitApproval("s-2", 60);
    run.until(() -> providerRequests.stream().filter(r -> r[0].startsWith("/orders/100")).count() >= 2, 30);
    assertThat(providerRequests).allMatch(r -> r[1] != null && r[1].startsWith("00-" + TRACE_ID + "-"));

    // kill -9 while the write waits for its approval; the turn resumes from the journal
    assertThat(run.kill(60)).isTrue();
    providerRequests.clear();
    run.start(dir, RunChild.RUNNING, 180);
    csrf = api.login();
    api.approve(api.awaitApproval("s-2", 60), csrf, "after the restart");
    assertThat(outcomes(result("s-2", "t2"))).containsExactly("succeeded", "succeeded", "succeeded");

    String[] cancel = providerRequests.stream().filter(r -> r[0].endsWith("/cancel")).findFirst().orElseThrow();
    assertThat(cancel[1]).startsWith("00-" + TRACE_ID + "-");
    Received resumed = awaitSpan("ratchet.turn", "t2");
    assertThat(resumed.traceId()).isEqualTo(TRACE_ID);
    assertThat(resumed.parentId()).isEqualTo("00f067aa0ba902b7");
    assertThat(resumed.attribute("ratchet.turn.resumed")).isEqualTo("true");
    Received write = awaitChild(resumed, "execute_tool orders_cancel_order");
    assertThat(cancel[1]).isEqualTo("00-" + TRACE_ID + "-" + write.spanId() + "-01");
    assertThat(write.attribute("ratchet.outcome")).isEqualTo("succeeded");
  }

  @Test
  void aCallersTraceparentReachesAnMcpServerOverHttpWithEachToolsCallInTheSpanOfItsCall() throws Exception {
    start();
    submit("s-4", "t4", "lookup", Map.of("traceparent", TRACEPARENT), new JsonArray()
        .add(new JsonObject().put("name", "look_up").put("arguments", new JsonObject().put("q", "a")))
        .add(new JsonObject().put("name", "look_up").put("arguments", new JsonObject().put("q", "b"))));
    assertThat(outcomes(result("s-4", "t4"))).containsExactly("succeeded", "succeeded");

    Received turn = awaitSpan("ratchet.turn", "t4");
    assertThat(turn.traceId()).isEqualTo(TRACE_ID);
    List<Received> calls = children(turn);
    assertThat(calls).hasSize(2);
    assertThat(mcp.calls).hasSize(2);
    for (Received call : calls) {
      String sent = "00-" + TRACE_ID + "-" + call.spanId() + "-01";
      // the HTTP header, and the same in the request's _meta, as MCP has it for any transport
      assertThat(mcp.calls).contains(new McpHttpProvider.Call(sent, sent));
    }
  }

  @Test
  void theLogLinesAboutAFailingCallCarryItsSessionTurnCallAndTraceIds() throws Exception {
    start();
    submit("s-5", "t5", Map.of("traceparent", TRACEPARENT), new JsonArray().add(call("orders_get_order", FAILING)));
    JsonObject results = result("s-5", "t5");
    assertThat(outcomes(results)).containsExactly("failed");
    String callId = results.getJsonArray("results").getJsonObject(0).getString("callId");

    // ratchet run's own logging, as an operator reads it: each retried attempt, then the outcome
    String ids = "session=s-5 turn=t5 call=" + callId + " trace=" + TRACE_ID;
    run.until(() -> run.output().stream()
        .anyMatch(l -> l.contains(ids) && l.contains("failed after 3 attempt(s)")), 30);
    assertThat(run.output()).filteredOn(l -> l.contains(ids) && l.contains("retrying")).hasSize(2);
  }

  @Test
  void aMalformedTraceparentStartsANewTraceAndTheTurnStillRuns() throws Exception {
    start();
    submit("s-3", "t3", Map.of("traceparent", "00-not-a-trace-01"), new JsonArray()
        .add(call("orders_get_order", "1001")));
    assertThat(outcomes(result("s-3", "t3"))).containsExactly("succeeded");
    Received turn = awaitSpan("ratchet.turn", "t3");
    assertThat(turn.span().getParentSpanId().isEmpty()).isTrue();
    assertThat(turn.span().getStatus().getCode()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
  }

  @Test
  void theAgentLoopsModelCallIsAChatSpanThatParentsTheTurnItAskedFor() throws Exception {
    collector.start(vertx);
    RunChild.copyDemo(dir);
    run.env(otel()).start(dir, "Demo API token:", 180);
    HttpResponse<String> sent = api.post("/api/sessions/demo-1/messages", new JsonObject().put("agent", "order-support")
        .put("text", "look up order 1003"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);

    Received turn = awaitSpan("ratchet.turn", "agent-step-1");
    Received chat = collector.spans().stream().filter(s -> s.spanId().equals(turn.parentId())).findFirst()
        .orElseThrow(() -> new AssertionError("the turn's parent is no received span"));
    assertThat(chat.name()).startsWith("chat ");
    assertThat(chat.span().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
    assertThat(chat.traceId()).isEqualTo(turn.traceId());
    assertThat(chat.attribute("gen_ai.operation.name")).isEqualTo("chat");
    assertThat(chat.attribute("gen_ai.conversation.id")).isEqualTo("demo-1");
    assertThat(chat.attribute("ratchet.model.tool_calls")).isEqualTo("1");
    assertThat(children(turn)).extracting(Received::name).containsExactly("execute_tool shop_look_up_order");
  }

  private void start() throws Exception {
    collector.start(vertx);
    mcp.start(vertx);
    int orders = await(vertx.createHttpServer().requestHandler(this::orders).listen(0, "127.0.0.1")).actualPort();
    Path agents = Files.createDirectories(dir.resolve("agents"));
    Files.createDirectories(dir.resolve("specs"));
    Files.writeString(dir.resolve("specs/orders.yaml"), OrdersProvider.SPEC);
    Files.writeString(agents.resolve("orders.yaml"), """
        agent: orders
        tools:
          - openapi: specs/orders.yaml
            connection: orders-api
            operations: [getOrder, cancelOrder]
            approval:
              cancelOrder: always
        """);
    Files.writeString(agents.resolve("lookup.yaml"), "agent: lookup\ntools:\n  - mcp: { url: " + mcp.url() + " }\n");
    Map<String, String> env = new HashMap<>();
    env.put("RATCHET_AGENTS_DIR", agents.toString());
    env.put("RATCHET_CONNECTION_ORDERS_API_CONNECTOR", "openapi");
    env.put("RATCHET_CONNECTION_ORDERS_API_CONFIG_BASE_URL", "http://127.0.0.1:" + orders);
    env.put("RATCHET_CONNECTION_ORDERS_API_CONFIG_CONNECTOR_ID", "orders");
    run.env(env).env(otel()).start(dir, RunChild.RUNNING, 180);
    assertThat(run.output()).anyMatch(l -> l.equals("Traces: OpenTelemetry, exporter otlp to " + collector.endpoint()));
  }

  private Map<String, String> otel() {
    return Map.of("OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(),
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf", "OTEL_SERVICE_NAME", "ratchet-under-test",
        "OTEL_BSP_SCHEDULE_DELAY", "100");
  }

  private void orders(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      providerRequests.add(new String[] {req.path(), req.getHeader("traceparent")});
      if (req.path().contains("/" + FAILING)) {
        req.response().setStatusCode(500).end();
        return;
      }
      req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("ok", true).encode());
    });
  }

  private void submit(String session, String turnId, Map<String, String> headers) throws Exception {
    submit(session, turnId, headers, new JsonArray().add(call("orders_get_order", "1001"))
        .add(call("orders_get_order", "1002")).add(call("orders_cancel_order", "1003")));
  }

  private void submit(String session, String turnId, Map<String, String> headers, JsonArray calls) throws Exception {
    submit(session, turnId, "orders", headers, calls);
  }

  private void submit(String session, String turnId, String agent, Map<String, String> headers, JsonArray calls)
      throws Exception {
    Map<String, String> all = new HashMap<>(headers);
    all.put("Authorization", "Bearer " + TOKEN);
    HttpResponse<String> r = api.post("/api/sessions/" + session + "/turns", new JsonObject().put("agent", agent)
        .put("turn", new JsonObject().put("turnId", turnId).put("calls", calls)), all);
    assertThat(r.statusCode()).as(r.body()).isIn(200, 202);
  }

  private static JsonObject call(String name, String orderId) {
    return new JsonObject().put("name", name).put("arguments", new JsonObject().put("orderId", orderId));
  }

  private JsonObject result(String session, String turnId) {
    return api.turnResults(session, turnId, 60);
  }

  private static List<String> outcomes(JsonObject results) {
    return results.getJsonArray("results").stream().map(o -> ((JsonObject) o).getString("outcome")).toList();
  }

  private Received awaitSpan(String name, String turnId) {
    Received[] found = new Received[1];
    run.until(() -> {
      found[0] = collector.spans().stream()
          .filter(s -> s.name().equals(name) && turnId.equals(s.attribute("ratchet.turn.id"))).findFirst().orElse(null);
      return found[0] != null;
    }, 30);
    return found[0];
  }

  private Received awaitChild(Received parent, String name) {
    Received[] found = new Received[1];
    run.until(() -> {
      found[0] = children(parent).stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
      return found[0] != null;
    }, 30);
    return found[0];
  }

  private List<Received> children(Received parent) {
    run.until(() -> collector.spans().stream().filter(s -> s.parentId().equals(parent.spanId())).count() >= 1, 30);
    return collector.spans().stream().filter(s -> s.parentId().equals(parent.spanId())
        && s.traceId().equals(parent.traceId())).toList();
  }
}

package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input on the event-bus API: malformed JSON, wrong types, huge and deeply nested payloads,
 * unknown sessions and calls, unicode edge cases, and random JSON. Every message gets an answer
 * (a reply, or an error with a 4xx code and a {@code CODE: message} text, never a timeout or a 500),
 * the API keeps serving, and nothing already journaled changes. HTTP fuzzing follows when the HTTP
 * API lands.
 */
class EventBusFuzzTest extends NodeFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String[] ADDRESSES = {Addresses.SUBMIT, Addresses.DECIDE, Addresses.PENDING, Addresses.RESULTS};

  private ApprovalRequest pending;
  private JsonObject journaledBefore;

  @BeforeEach
  void start() {
    FunctionToolSource tools = FunctionToolSource.create("fuzz")
        .read("look", "look", new JsonObject().put("type", "object").put("properties",
            new JsonObject().put("q", new JsonObject().put("type", "string"))), inv -> Future.succeededFuture("ok"))
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> Future.succeededFuture("paid")));
    await(ratchet.register(AgentDefinition.builder("fuzz").toolSource(tools).build()));
    await(ratchet.submit("fuzz", "known", Turn.of("done", new ToolCall("look", new JsonObject().put("q", "x")))));
    ratchet.submit("fuzz", "known", Turn.of("waiting", new ToolCall("pay", new JsonObject().put("amount", 1))));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    pending = await(ratchet.pendingApprovals()).get(0);
    journaledBefore = journaled();
  }

  /** The known session's journal and the approvals inbox, with step ids and times left out. */
  private JsonObject journaled() {
    JsonArray events = new JsonArray();
    for (JsonObject e : await(ratchet.journal().events("known", null, 10_000))) {
      events.add(e.copy().put("id", "").put("at", 0));
    }
    JsonArray inbox = new JsonArray();
    await(ratchet.pendingApprovals()).forEach(r -> inbox.add(r.toJson()));
    return new JsonObject().put("events", events).put("inbox", inbox)
        .put("done", await(ratchet.journal().turnResult("known", "done")).toJson());
  }

  private static String nested(int depth) {
    return "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
  }

  private static JsonObject nestedObject(int depth) {
    JsonObject root = new JsonObject();
    JsonObject cur = root;
    for (int i = 0; i < depth; i++) {
      JsonObject next = new JsonObject();
      cur.put("a", next);
      cur = next;
    }
    return root;
  }

  private List<Object> corpus() {
    String huge = "x".repeat(2_000_000);
    String[] strings = {"", " ", "a", "\u0000", "\uD800", "\uDFFF", "\uFEFF", "e\u0301", "\u202Eevil", "😀", "漢字",
        "../../etc/passwd", "ratchet:{known}:meta", "known\nx", "%s%n", "' OR 1=1 --", "known", huge};
    List<Object> c = new ArrayList<>();
    // not JSON objects at all
    c.addAll(List.of("", "{", "}", "not json", "[1,2,3]", "null", "1", "\"str\"", "{\"a\":}", "\uD800", nested(5_000),
        huge, "{\"agent\":\"fuzz\"" + ",\"x\":1".repeat(10_000) + "}"));
    c.add(new JsonArray().add(1));
    c.add(Buffer.buffer("bytes"));
    c.add(42);
    c.add(true);
    c.add(new JsonObject());
    c.add(nestedObject(300));
    // every field of every request with wrong types and odd strings
    List<Object> values = new ArrayList<>(List.of(1, -1, 1.5, true, false, new JsonArray(), new JsonObject(),
        new JsonArray().add(new JsonObject()), Long.MAX_VALUE));
    values.addAll(List.of(strings));
    values.add(nestedObject(200));
    String[] fields = {"agent", "sessionId", "turn", "replyAddress", "callId", "argumentsHash", "approved",
        "approver", "reason", "turnId"};
    for (String field : fields) {
      for (Object v : values) {
        c.add(valid().put(field, v));
        c.add(validDecision().put(field, v));
        c.add(new JsonObject().put("sessionId", "known").put("turnId", "done").put(field, v));
      }
    }
    // turns with odd calls
    Object[] turns = {new JsonObject().put("turnId", "done").put("calls", new JsonArray()), // reused id
        new JsonObject().put("turnId", "waiting").put("calls", new JsonArray().add(call("look", new JsonObject()))),
        new JsonObject().put("turnId", "t").put("calls", "x"),
        new JsonObject().put("turnId", "t").put("calls", new JsonArray().add("x")),
        new JsonObject().put("turnId", "t").put("calls", new JsonArray().add(new JsonObject().put("name", 5))),
        new JsonObject().put("turnId", "t").put("calls", new JsonArray().add(call("pay", nestedObject(200)))),
        new JsonObject().put("turnId", huge).put("calls", new JsonArray().add(call("look", new JsonObject()))),
        new JsonObject().put("turnId", "\u0000").put("calls", new JsonArray().add(call("look", new JsonObject())))};
    for (Object t : turns) {
      c.add(valid().put("turn", t));
    }
    // decisions for unknown sessions and calls, other arguments, the wrong types
    c.add(validDecision().put("sessionId", "nobody"));
    c.add(validDecision().put("callId", "call_unknown"));
    c.add(validDecision().put("argumentsHash", "0".repeat(64)));
    c.add(validDecision().put("approved", "yes"));
    c.add(new JsonObject().put("sessionId", "nobody").put("turnId", "none"));
    // random JSON
    Random random = new Random(7);
    for (int i = 0; i < 300; i++) {
      c.add(randomObject(random, 0));
    }
    return c;
  }

  private JsonObject valid() {
    return new JsonObject().put("agent", "fuzz").put("sessionId", "known").put("turn",
        new JsonObject().put("turnId", "done").put("calls",
            new JsonArray().add(call("look", new JsonObject().put("q", "x")))));
  }

  private JsonObject validDecision() {
    return new JsonObject().put("sessionId", "known").put("callId", pending.callId().value())
        .put("argumentsHash", pending.argumentsHash() + "0").put("approved", true).put("approver", "fuzzer");
  }

  private static JsonObject call(String name, JsonObject args) {
    return new JsonObject().put("name", name).put("arguments", args);
  }

  private static final String[] KEYS = {"agent", "sessionId", "turn", "turnId", "calls", "name", "arguments", "callId",
      "argumentsHash", "approved", "approver", "reason", "replyAddress", "z"};

  private static Object randomValue(Random r, int depth) {
    switch (r.nextInt(depth > 4 ? 5 : 8)) {
      case 0:
        return r.nextInt();
      case 1:
        return r.nextBoolean();
      case 2:
        return r.nextDouble();
      case 3:
        return new String(Character.toChars(r.nextBoolean() ? 1 + r.nextInt(0xD7FE) : 0x10000 + r.nextInt(0xFFFFF)))
            + "known";
      case 4:
        return r.nextBoolean() ? "fuzz" : "known";
      case 5:
        JsonArray a = new JsonArray();
        for (int i = r.nextInt(4); i > 0; i--) {
          a.add(randomValue(r, depth + 1));
        }
        return a;
      default:
        return randomObject(r, depth + 1);
    }
  }

  private static JsonObject randomObject(Random r, int depth) {
    JsonObject o = new JsonObject();
    for (int i = r.nextInt(5); i > 0; i--) {
      o.put(KEYS[r.nextInt(KEYS.length)], randomValue(r, depth));
    }
    return o;
  }

  @Test
  void everyHostileMessageGetsAClearAnswerAndNothingJournaledChanges() {
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(10_000);
    int errors = 0;
    for (Object body : corpus()) {
      for (String address : ADDRESSES) {
        Future<Message<Object>> reply = vertx.eventBus().request(address, body, options);
        String shown = String.valueOf(body);
        shown = shown.length() > 200 ? shown.substring(0, 200) + "..." : shown;
        try {
          Object answer = await(reply, 15).body();
          assertThat(answer).as(address + " " + shown).isInstanceOf(JsonObject.class);
        } catch (ReplyException e) {
          errors++;
          assertThat(e.failureType()).as(address + " answered in time: " + shown).isEqualTo(ReplyFailure.RECIPIENT_FAILURE);
          assertThat(e.failureCode()).as(address + " " + shown + ": " + e.getMessage()).isBetween(400, 499);
          assertThat(e.getMessage()).as(address + " " + shown).matches("(?s)[A-Z_]+: .+");
        }
      }
    }
    assertThat(errors).isPositive();
    // the API still serves, and the known session's journal and the inbox are as they were
    JsonObject results = await(vertx.eventBus().<JsonObject>request(Addresses.RESULTS,
        new JsonObject().put("sessionId", "known").put("turnId", "done"))).body();
    assertThat(results.getString("status")).isEqualTo("completed");
    // (a hostile but well-formed message may journal a new turn; what was there stays as it was)
    JsonObject after = journaled();
    JsonArray before = journaledBefore.getJsonArray("events");
    assertThat(after.getJsonArray("events").getList().subList(0, before.size())).isEqualTo(before.getList());
    assertThat(after.getJsonObject("done")).isEqualTo(journaledBefore.getJsonObject("done"));
    assertThat(await(ratchet.pendingApprovals())).contains(pending);
    assertThat(await(ratchet.journal().callState("known", pending.callId())).approval().status()).isEqualTo("pending");
  }
}

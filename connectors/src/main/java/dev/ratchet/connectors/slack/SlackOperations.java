package dev.ratchet.connectors.slack;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectorManifest;
import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Slack operations. Posts carry the call id in Slack message metadata
 * ({@code event_type: ratchet_call}), which is how {@code postThreadReply}'s lookup finds an
 * earlier post of the same call so that recovering a write never posts twice.
 */
public final class SlackOperations {

  public static final String MANIFEST_RESOURCE = "/dev/ratchet/connectors/slack/ratchet-connector.json";
  public static final String METADATA_EVENT_TYPE = "ratchet_call";
  private static final int LOOKUP_MAX_PAGES = 100;

  private final ConnectorManifest manifest;
  private final SlackApi api;
  private final String connectionName;

  public SlackOperations(ConnectorManifest manifest, SlackApi api, Connection connection) {
    this.manifest = manifest;
    this.api = api;
    this.connectionName = connection.name();
  }

  public ConnectorOperation postChannelMessage() {
    return op("postChannelMessage", inv -> post(inv, false, timeout("postChannelMessage")), null);
  }

  public ConnectorOperation postThreadReply() {
    Duration timeout = timeout("postThreadReply");
    return op("postThreadReply", inv -> post(inv, true, timeout), inv -> findReply(inv, timeout));
  }

  public ConnectorOperation addReaction() {
    Duration timeout = timeout("addReaction");
    return op("addReaction", inv -> {
      JsonObject a = inv.arguments();
      JsonObject body = new JsonObject().put("channel", a.getString("channel"))
          .put("timestamp", a.getString("timestamp")).put("name", a.getString("name"));
      JsonObject value = body.copy();
      return api.write("reactions.add", body, inv, timeout).map(reply -> {
        if (reply.isOk()) {
          return ToolResult.success(value);
        }
        // reacting twice changes nothing, which is what makes this write safe to retry
        return "already_reacted".equals(reply.error()) ? ToolResult.success(value).withBranch("already_reacted")
            : reply.ended();
      });
    }, null);
  }

  public ConnectorOperation listThreadMessages() {
    Duration timeout = timeout("listThreadMessages");
    return op("listThreadMessages", inv -> {
      JsonObject a = inv.arguments();
      Map<String, String> q = repliesQuery(a.getString("channel"), a.getString("thread_ts"));
      if (a.getValue("limit") != null) {
        q.put("limit", String.valueOf(a.getValue("limit")));
      }
      if (a.getString("cursor") != null) {
        q.put("cursor", a.getString("cursor"));
      }
      return api.read("conversations.replies", q, inv, timeout).map(reply -> {
        if (!reply.isOk()) {
          return reply.ended();
        }
        JsonArray messages = new JsonArray();
        reply.body().getJsonArray("messages", new JsonArray()).forEach(m -> messages.add(message((JsonObject) m)));
        return ToolResult.success(new JsonObject().put("messages", messages)
            .put("has_more", reply.body().getBoolean("has_more", false))
            .put("next_cursor", nextCursor(reply.body())));
      });
    }, null);
  }

  public ConnectorOperation getThreadReply() {
    Duration timeout = timeout("getThreadReply");
    return op("getThreadReply", inv -> {
      JsonObject a = inv.arguments();
      String ts = a.getString("ts");
      Map<String, String> q = repliesQuery(a.getString("channel"), a.getString("thread_ts"));
      q.put("oldest", ts);
      q.put("latest", ts);
      q.put("inclusive", "true");
      return api.read("conversations.replies", q, inv, timeout).map(reply -> {
        if (!reply.isOk()) {
          return reply.ended();
        }
        for (Object m : reply.body().getJsonArray("messages", new JsonArray())) {
          if (m instanceof JsonObject msg && ts.equals(msg.getString("ts"))) {
            return ToolResult.success(message(msg));
          }
        }
        return ToolResult.rejected("no message " + ts + " in thread " + a.getString("thread_ts"))
            .withBranch("not_found");
      });
    }, null);
  }

  private Future<ToolResult> post(ToolInvocation inv, boolean threaded, Duration timeout) {
    JsonObject a = inv.arguments();
    JsonObject body = new JsonObject().put("channel", a.getString("channel")).put("text", a.getString("text"));
    if (threaded) {
      body.put("thread_ts", a.getString("thread_ts"));
    }
    body.put("metadata", new JsonObject().put("event_type", METADATA_EVENT_TYPE)
        .put("event_payload", new JsonObject().put("call_id", inv.callId().value())));
    return api.write("chat.postMessage", body, inv, timeout).map(reply -> {
      if (!reply.isOk()) {
        return reply.ended();
      }
      JsonObject value = new JsonObject().put("channel", reply.body().getString("channel", a.getString("channel")))
          .put("ts", reply.body().getString("ts"));
      if (threaded) {
        value.put("thread_ts", a.getString("thread_ts"));
      }
      return ToolResult.success(value);
    });
  }

  /** Pages through the thread looking for a reply whose metadata names this call id. */
  private Future<Optional<ToolResult>> findReply(ToolInvocation inv, Duration timeout) {
    return findReply(inv, timeout, null, 0);
  }

  private Future<Optional<ToolResult>> findReply(ToolInvocation inv, Duration timeout, String cursor, int page) {
    JsonObject a = inv.arguments();
    Map<String, String> q = repliesQuery(a.getString("channel"), a.getString("thread_ts"));
    q.put("limit", "200");
    if (cursor != null) {
      q.put("cursor", cursor);
    }
    return api.read("conversations.replies", q, null, timeout).compose(reply -> {
      if (!reply.isOk()) {
        return Future.failedFuture(new IllegalStateException("looking up an earlier reply failed: "
            + reply.ended().error()));
      }
      for (Object m : reply.body().getJsonArray("messages", new JsonArray())) {
        if (m instanceof JsonObject msg && inv.callId().value().equals(callIdOf(msg))) {
          return Future.succeededFuture(Optional.of(ToolResult.success(new JsonObject()
              .put("channel", a.getString("channel")).put("ts", msg.getString("ts"))
              .put("thread_ts", a.getString("thread_ts")))));
        }
      }
      String next = nextCursor(reply.body());
      if (next == null || page + 1 >= LOOKUP_MAX_PAGES) {
        return Future.succeededFuture(Optional.empty());
      }
      return findReply(inv, timeout, next, page + 1);
    });
  }

  private static Map<String, String> repliesQuery(String channel, String threadTs) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("channel", channel);
    q.put("ts", threadTs);
    q.put("include_all_metadata", "true");
    return q;
  }

  private static String callIdOf(JsonObject msg) {
    JsonObject metadata = msg.getValue("metadata") instanceof JsonObject o ? o : null;
    if (metadata == null || !METADATA_EVENT_TYPE.equals(metadata.getValue("event_type"))) {
      return null;
    }
    return metadata.getValue("event_payload") instanceof JsonObject p && p.getValue("call_id") instanceof String s
        ? s : null;
  }

  private static JsonObject message(JsonObject m) {
    JsonObject out = new JsonObject().put("ts", m.getString("ts"));
    copy(m, out, "thread_ts");
    copy(m, out, "user");
    copy(m, out, "bot_id");
    copy(m, out, "text");
    String callId = callIdOf(m);
    if (callId != null) {
      out.put("call_id", callId);
    }
    return out;
  }

  private static void copy(JsonObject from, JsonObject to, String key) {
    if (from.getValue(key) != null) {
      to.put(key, from.getValue(key));
    }
  }

  private static String nextCursor(JsonObject body) {
    JsonObject meta = body.getValue("response_metadata") instanceof JsonObject o ? o : null;
    String next = meta == null ? null : meta.getString("next_cursor");
    return next == null || next.isEmpty() ? null : next;
  }

  private Duration timeout(String name) {
    return manifest.operation(name).timeout();
  }

  private ConnectorOperation op(String name, java.util.function.Function<ToolInvocation, Future<ToolResult>> execute,
                                java.util.function.Function<ToolInvocation, Future<Optional<ToolResult>>> lookup) {
    return new SlackOperation(manifest, name, connectionName, execute, lookup);
  }
}

package dev.ratchet.connectors.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A local server speaking the parts of the Slack Web API the Slack connector uses
 * (chat.postMessage, reactions.add, conversations.replies), counting effects per call id. Faults
 * can be queued to answer the next request(s) the way Slack or a network does when things go wrong.
 * Crash tests elsewhere use it through this module's test jar.
 */
public final class SlackTestServer implements AutoCloseable {

  /** What the server does to the next request instead of (or after) answering normally. */
  public enum Fault {
    /** HTTP 429 with Retry-After: 7, nothing applied. */
    RATE_LIMITED,
    /** Applies the request, then answers HTTP 500. */
    SERVER_ERROR_AFTER_APPLYING,
    /** Applies the request, then closes the connection without an answer. */
    DROP_AFTER_APPLYING,
    /** Applies the request, then answers 200 with an HTML page. */
    HTML_AFTER_APPLYING,
    /** Answers {@code ok:false, error:internal_error} after applying. */
    INTERNAL_ERROR_AFTER_APPLYING,
    /** Applies the request and never answers, as when the caller crashes or times out mid-call. */
    HANG_AFTER_APPLYING,
    /** Takes the request but neither applies it nor answers, as a provider that stalls before acting. */
    HANG_BEFORE_APPLYING
  }

  private final Vertx vertx;
  private final AtomicReference<String> token;
  private final List<JsonObject> messages = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> postsByCallId = new ConcurrentHashMap<>();
  private final Set<String> reactions = ConcurrentHashMap.newKeySet();
  private final AtomicInteger reactionEffects = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger held = new AtomicInteger();
  private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
  private final AtomicLong clock = new AtomicLong(1710000000L * 1_000_000);
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private HttpServer server;

  public SlackTestServer(Vertx vertx, String token) {
    this.vertx = vertx;
    this.token = new AtomicReference<>(token);
  }

  public SlackTestServer start() {
    server = await(vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1"));
    return this;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort() + "/api";
  }

  /** The token the server accepts from now on, as after a rotation. */
  public void acceptToken(String newToken) {
    token.set(newToken);
  }

  public void failNext(Fault fault) {
    faults.add(fault);
  }

  /** A parent message posted directly, as a person would; returns its ts. */
  public String seedMessage(String channel, String text) {
    String ts = nextTs();
    messages.add(new JsonObject().put("channel", channel).put("ts", ts).put("text", text).put("user", "U_PERSON"));
    return ts;
  }

  public int postsFor(String callId) {
    AtomicInteger n = postsByCallId.get(callId);
    return n == null ? 0 : n.get();
  }

  public int totalPosts() {
    return postsByCallId.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  public int reactionEffects() {
    return reactionEffects.get();
  }

  public int requests() {
    return requests.get();
  }

  /** Requests taken under {@link Fault#HANG_BEFORE_APPLYING}: received, never applied, never answered. */
  public int heldUnapplied() {
    return held.get();
  }

  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  public List<JsonObject> messages() {
    return List.copyOf(messages);
  }

  private void handle(HttpServerRequest req) {
    requests.incrementAndGet();
    req.body().onSuccess(body -> {
      String auth = req.getHeader("Authorization");
      authorizations.add(auth == null ? "" : auth);
      if (!("Bearer " + token.get()).equals(auth)) {
        json(req, new JsonObject().put("ok", false).put("error", auth == null ? "not_authed" : "invalid_auth"));
        return;
      }
      Fault fault = faults.poll();
      if (fault == Fault.RATE_LIMITED) {
        req.response().setStatusCode(429).putHeader("Retry-After", "7").end();
        return;
      }
      if (fault == Fault.HANG_BEFORE_APPLYING) {
        held.incrementAndGet();
        return;
      }
      String path = req.path();
      JsonObject answer;
      if (path.endsWith("/chat.postMessage")) {
        answer = postMessage(body.length() == 0 ? new JsonObject() : body.toJsonObject());
      } else if (path.endsWith("/reactions.add")) {
        answer = addReaction(body.toJsonObject());
      } else if (path.endsWith("/conversations.replies")) {
        answer = replies(req);
      } else {
        answer = new JsonObject().put("ok", false).put("error", "unknown_method");
      }
      if (fault == null) {
        json(req, answer);
      } else if (fault == Fault.SERVER_ERROR_AFTER_APPLYING) {
        req.response().setStatusCode(500).end("oops");
      } else if (fault == Fault.DROP_AFTER_APPLYING) {
        req.connection().close();
      } else if (fault == Fault.HTML_AFTER_APPLYING) {
        req.response().putHeader("Content-Type", "text/html").end("<html><body>Slack is down</body></html>");
      } else if (fault == Fault.HANG_AFTER_APPLYING) {
        // leave the exchange open: the caller decides when to give up
      } else if (fault == Fault.INTERNAL_ERROR_AFTER_APPLYING) {
        json(req, new JsonObject().put("ok", false).put("error", "internal_error"));
      }
    });
  }

  private JsonObject postMessage(JsonObject body) {
    String channel = body.getString("channel");
    if (channel == null || body.getString("text") == null) {
      return new JsonObject().put("ok", false).put("error", channel == null ? "channel_not_found" : "no_text");
    }
    if (channel.startsWith("C_MISSING")) {
      return new JsonObject().put("ok", false).put("error", "channel_not_found");
    }
    String ts = nextTs();
    JsonObject msg = new JsonObject().put("channel", channel).put("ts", ts).put("text", body.getString("text"))
        .put("bot_id", "B_RATCHET");
    if (body.getString("thread_ts") != null) {
      msg.put("thread_ts", body.getString("thread_ts"));
    }
    JsonObject metadata = body.getJsonObject("metadata");
    if (metadata != null) {
      msg.put("metadata", metadata);
      String callId = metadata.getJsonObject("event_payload", new JsonObject()).getString("call_id");
      if (callId != null) {
        postsByCallId.computeIfAbsent(callId, k -> new AtomicInteger()).incrementAndGet();
      }
    }
    messages.add(msg);
    return new JsonObject().put("ok", true).put("channel", channel).put("ts", ts)
        .put("message", new JsonObject().put("text", msg.getString("text")).put("ts", ts));
  }

  private JsonObject addReaction(JsonObject body) {
    String channel = body.getString("channel");
    String ts = body.getString("timestamp");
    if (messages.stream().noneMatch(m -> m.getString("channel").equals(channel) && m.getString("ts").equals(ts))) {
      return new JsonObject().put("ok", false).put("error", "message_not_found");
    }
    if (!reactions.add(channel + "/" + ts + "/" + body.getString("name"))) {
      return new JsonObject().put("ok", false).put("error", "already_reacted");
    }
    reactionEffects.incrementAndGet();
    return new JsonObject().put("ok", true);
  }

  private JsonObject replies(HttpServerRequest req) {
    String channel = req.getParam("channel");
    String ts = req.getParam("ts");
    boolean withMetadata = "true".equals(req.getParam("include_all_metadata"));
    int limit = req.getParam("limit") == null ? 1000 : Integer.parseInt(req.getParam("limit"));
    int offset = req.getParam("cursor") == null ? 0 : Integer.parseInt(req.getParam("cursor").substring(4));
    String oldest = req.getParam("oldest");
    String latest = req.getParam("latest");
    List<JsonObject> thread = new ArrayList<>();
    for (JsonObject m : messages) {
      if (!m.getString("channel").equals(channel)) {
        continue;
      }
      boolean parent = m.getString("ts").equals(ts);
      boolean reply = ts.equals(m.getString("thread_ts"));
      if (!parent && !reply) {
        continue;
      }
      // like Slack, the parent comes first whatever the range
      if (reply && ((oldest != null && m.getString("ts").compareTo(oldest) < 0)
          || (latest != null && m.getString("ts").compareTo(latest) > 0))) {
        continue;
      }
      JsonObject copy = m.copy();
      copy.remove("channel");
      if (!withMetadata) {
        copy.remove("metadata");
      }
      if (parent) {
        copy.put("thread_ts", ts);
      }
      thread.add(copy);
    }
    if (thread.isEmpty()) {
      return new JsonObject().put("ok", false).put("error", "thread_not_found");
    }
    thread.sort(Comparator.comparing(m -> m.getString("ts")));
    List<JsonObject> page = thread.subList(Math.min(offset, thread.size()), Math.min(offset + limit, thread.size()));
    boolean more = offset + limit < thread.size();
    return new JsonObject().put("ok", true).put("messages", new JsonArray(new ArrayList<>(page)))
        .put("has_more", more)
        .put("response_metadata", new JsonObject().put("next_cursor", more ? "pos:" + (offset + limit) : ""));
  }

  private String nextTs() {
    long micros = clock.addAndGet(100);
    return String.format("%d.%06d", micros / 1_000_000, micros % 1_000_000);
  }

  private static void json(HttpServerRequest req, JsonObject body) {
    req.response().putHeader("Content-Type", "application/json; charset=utf-8").end(body.encode());
  }

  @Override
  public void close() {
    if (server != null) {
      await(server.close());
    }
  }
}

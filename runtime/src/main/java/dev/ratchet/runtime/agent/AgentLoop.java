package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnTracer;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.engine.StepWriter;
import dev.ratchet.runtime.engine.TurnLimits;
import dev.ratchet.runtime.impl.Contexts;
import dev.ratchet.runtime.impl.LogIds;
import dev.ratchet.runtime.impl.StepEvents;
import dev.ratchet.runtime.impl.Timeouts;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Ratchet's own agent loop for one session: RunModel, the response's tool calls run as a turn by
 * the session's {@link SessionEngine} (so every rule of a turn holds), the results back to the
 * model, and again, until the model answers without tool calls or the agent's turn limit is reached.
 *
 * <p>Everything the loop knows is in the journal's conversation of the session: user messages,
 * model responses (each recorded once per loop step, before its tool calls run) and round ends.
 * After a restart the conversation is rebuilt from it: a recorded response is never requested
 * again, and its turn, whose id is derived from the step ({@link #turnId(long)}), is submitted
 * again, which rule 1 makes run once. A round is open while a user message is not covered by a
 * round end; the loop continues an open round on start.
 *
 * <p>All state is touched on the context the loop was created on (the session engine's).
 */
public final class AgentLoop {

  private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

  private final Context context;
  private final SessionJournal journal;
  private final SessionEngine engine;
  private final AgentDefinition agent;
  private final ToolCatalog catalog;
  private final Consumer<JsonObject> events;
  private final String sessionId;

  private final RatchetClock clock;
  private final Conversation conversation;
  private final Map<Long, TurnResult> results = new HashMap<>();
  private final List<Waiter> waiters = new ArrayList<>();
  private final ReplyAddresses replyAddresses = new ReplyAddresses();
  private long step;
  private boolean running;
  /** The round waits for the engine to finish its tool turn, and for nothing else. */
  private boolean awaitingTurn;
  private boolean stopped;

  private record Waiter(long index, Promise<AgentReply> promise) {
  }

  /** A loop on its engine's clock ({@link SessionEngine#clock()}). */
  public AgentLoop(Vertx vertx, SessionJournal journal, SessionEngine engine, AgentDefinition agent, ToolCatalog catalog,
                   Consumer<JsonObject> events) {
    this(vertx, journal, engine, agent, catalog, events, engine.clock());
  }

  /**
   * A loop that reads the time and waits its model time-outs and retry back-offs on {@code clock},
   * which should be its engine's.
   */
  public AgentLoop(Vertx vertx, SessionJournal journal, SessionEngine engine, AgentDefinition agent, ToolCatalog catalog,
                   Consumer<JsonObject> events, RatchetClock clock) {
    if (agent.model() == null) {
      throw new IllegalArgumentException("agent '" + agent.name() + "' has no model");
    }
    this.clock = clock;
    this.context = vertx.getOrCreateContext();
    this.journal = journal;
    this.engine = engine;
    this.agent = agent;
    this.catalog = catalog;
    this.events = events == null ? e -> { } : events;
    this.sessionId = engine.sessionId();
    this.conversation = new Conversation(journal, sessionId);
  }

  /** Where the replies to messages sent with a reply address go; set before {@link #start}. */
  public AgentLoop replies(MessageReplies replies) {
    replyAddresses.replies(replies);
    return this;
  }

  /** The turn id of a loop step's tool calls: the same for every replay of the step. */
  public static String turnId(long step) {
    return "agent-step-" + step;
  }

  /** True when no round is running and no user message waits for an answer. */
  public boolean isIdle() {
    return !running && !conversation.open();
  }

  /**
   * True when the loop may stop here and continue on another node without doing anything twice:
   * idle, or its round waits only for its tool turn (which the engine says is parked or not).
   */
  public boolean isParkable() {
    return !running || awaitingTurn;
  }

  /** Rebuilds the conversation from the journal (after the engine started) and continues an open round. */
  public Future<Void> start() {
    return onContext(() -> journal.conversation(sessionId).compose(list -> {
      conversation.reset(list);
      step = 0;
      List<JsonObject> withTools = new ArrayList<>();
      for (JsonObject e : conversation.entries()) {
        if ("model".equals(e.getString("type"))) {
          step = Math.max(step, e.getLong("step"));
          if (!e.getJsonObject("response").getJsonArray("toolCalls", new JsonArray()).isEmpty()) {
            withTools.add(e);
          }
        }
      }
      // the results of every recorded tool turn; a turn that was in flight is resumed by the engine
      Future<Void> chain = Future.succeededFuture();
      for (JsonObject e : withTools) {
        chain = chain.compose(v -> {
          if (results.containsKey(e.getLong("step"))) {
            return Future.succeededFuture();
          }
          return journal.turnResult(sessionId, e.getString("turnId")).map(r -> {
            if (r != null) {
              results.put(e.getLong("step"), r);
            }
            return null;
          });
        });
      }
      return chain;
    }).onSuccess(v -> {
      answerJournaledAddresses();
      if (conversation.open()) {
        LogIds.session(sessionId).info(LOG, "continuing the agent loop at step {}", step);
      }
      maybeRun();
    }));
  }

  public Future<Void> stop() {
    return onContext(() -> {
      stopped = true;
      return Future.succeededFuture();
    });
  }

  /**
   * Journals a user message and answers, once it is journaled, with the future of the reply that ends
   * its round. A message id seen before is not appended again: it answers the same reply.
   */
  public Future<Accepted<AgentReply>> accept(String messageId, String text) {
    return accept(messageId, text, null);
  }

  /**
   * As {@link #accept(String, String)}, for the session of {@code callerId}: the first message
   * creates the session with that caller; a session with another caller, or none, refuses the
   * message with {@code CALLER_MISMATCH}. Null accepts the session's own caller (trusted callers only).
   */
  public Future<Accepted<AgentReply>> accept(String messageId, String text, String callerId) {
    return accept(messageId, text, callerId, null);
  }

  /** As {@link #accept(String, String, String)}; a session this message creates records {@code creator}. */
  public Future<Accepted<AgentReply>> accept(String messageId, String text, String callerId, String creator) {
    return accept(messageId, text, callerId, creator, null);
  }

  /**
   * As {@link #accept(String, String, String, String)}; {@code replyAddress} (null: none) is journaled
   * with a new message, and this node answers it through {@link #replies} when the message's round
   * ends here (or at once when it ended before). docs/EVENT-BUS.md.
   */
  public Future<Accepted<AgentReply>> accept(String messageId, String text, String callerId, String creator,
                                             String replyAddress) {
    return journalMessage(messageId, text, callerId, creator, replyAddress).map(Accepted::new);
  }

  private Future<Future<AgentReply>> journalMessage(String messageId, String text, String callerId, String creator,
                                                    String replyAddress) {
    RatchetException badId = messageId == null ? null : Ids.problem("messageId", messageId);
    if (badId != null) {
      return Future.failedFuture(badId);
    }
    String id = messageId == null ? UUID.randomUUID().toString() : messageId;
    return onContext(() -> {
      if (stopped || engine.isFenced()) {
        return Future.failedFuture(engine.steps().notOwner());
      }
      long now = clock.millis();
      JsonObject entry = new JsonObject().put("type", "user").put("messageId", id).put("text", text).put("at", now);
      if (replyAddress != null) {
        entry.put(ReplyAddresses.FIELD, replyAddress);
      }
      JsonObject data = new JsonObject().put("messageId", id).put("text", text);
      return conversation.append(() -> engine.steps().messageUser(catalog.agent(), callerId, creator, id, entry, data))
          .map(appended -> {
            engine.callerAccepted(callerId);
            if (appended.created()) {
              emit(EventType.MESSAGE_USER.wireName(), null, data);
            }
            JsonObject end = conversation.endCovering(appended.index());
            Future<AgentReply> reply = end != null ? Future.succeededFuture(reply(end)) : await(appended.index());
            replyAddresses.answerWhenDone(replyAddress, id, reply);
            maybeRun();
            return reply;
          });
    });
  }

  // ------------------------------------------------------------------ the loop

  private void maybeRun() {
    if (running || stopped || !conversation.open()) {
      return;
    }
    running = true;
    Promise<Void> round = Promise.promise();
    next(round);
    round.future().onComplete(ar -> {
      running = false;
      if (ar.failed()) {
        LogIds.session(sessionId).warn(LOG, "the agent loop stopped: {}", VisibleText.escape(ar.cause().getMessage()));
        if (stopped || engine.isFenced() || StepWriter.isFencing(ar.cause())) {
          stopped = true;
          failWaiters(ar.cause());
          return;
        }
        // a journal outage: the waiting messages stay open and are answered on the next message or start
        failWaiters(ar.cause());
        return;
      }
      maybeRun();
    });
  }

  /** One move of the round, decided from the conversation alone, so a rebuilt loop moves the same way. */
  private void next(Promise<Void> round) {
    if (stopped || engine.isFenced()) {
      round.tryFail(engine.steps().notOwner());
      return;
    }
    int lastEnd = conversation.lastIndexOf("end");
    List<JsonObject> models = new ArrayList<>();
    for (int i = lastEnd + 1; i < conversation.size(); i++) {
      if ("model".equals(conversation.get(i).getString("type"))) {
        models.add(conversation.get(i));
      }
    }
    JsonObject last = models.isEmpty() ? null : models.get(models.size() - 1);
    if (last != null) {
      ModelResponse response = ModelResponse.fromJson(last.getJsonObject("response"));
      long lastStep = last.getLong("step");
      if (!response.hasToolCalls()) {
        end(round, AgentReply.ANSWERED, response.text(), lastStep, null, last.getLong("seen"), EventType.MESSAGE_ASSISTANT.wireName());
        return;
      }
      if (!results.containsKey(lastStep)) {
        awaitingTurn = true;
        // the turn continues the trace of the model call that asked for it
        Turn turn = new Turn(last.getString("turnId"), response.toolCalls()).withTraceparent(last.getString("traceparent"));
        engine.submit(turn).onComplete(ar -> {
          awaitingTurn = false;
          if (ar.failed()) {
            round.tryFail(ar.cause());
            return;
          }
          results.put(lastStep, ar.result());
          next(round);
        });
        return;
      }
      long toolTurns = models.stream().filter(m -> !m.getJsonObject("response")
          .getJsonArray("toolCalls", new JsonArray()).isEmpty()).count();
      if (toolTurns >= agent.maxTurns()) {
        end(round, AgentReply.TURN_LIMIT, "I stopped after " + toolTurns + " tool turns (the limit of this agent)"
            + " without a final answer.", lastStep, null, last.getLong("seen"), EventType.MESSAGE_ASSISTANT.wireName());
        return;
      }
    }
    runModel(round, step + 1, 1);
  }

  private void runModel(Promise<Void> round, long nextStep, int attempt) {
    long seen = conversation.size();
    ModelRequest request = new ModelRequest(conversation.messages(agent.systemPrompt(), results),
        ToolSpec.of(engine.catalog()));
    TraceSpan span = TurnTracer.current().modelCall(sessionId, agent.model().describe(), null)
        .attribute("ratchet.session.id", sessionId).attribute("ratchet.model.step", nextStep)
        .attribute("ratchet.attempt", attempt);
    Timeouts.within(clock, context, () -> agent.model().chat(request), agent.modelTimeout().toMillis(),
        "the model").onComplete(ar -> {
      if (ar.succeeded() && ar.result() != null) {
        span.attribute("ratchet.model.tool_calls", ar.result().toolCalls().size());
      } else {
        span.failed(ar.failed() ? ar.cause().getClass().getSimpleName() : "no_response",
            ar.failed() ? Redaction.scrub(ar.cause().getMessage()) : "the model answered nothing");
      }
      span.end();
      if (stopped) {
        round.tryFail(new RatchetException(ErrorCode.STOPPED, "session stopped"));
        return;
      }
      RatchetException overLimit = null;
      if (ar.succeeded() && ar.result() != null) {
        ModelResponse response = withCallIds(ar.result(), nextStep);
        // a response the engine would refuse is never recorded: it would stop the session at every later step
        overLimit = response.hasToolCalls()
            ? TurnLimits.problem(new Turn(turnId(nextStep), response.toolCalls()), engine.options()) : null;
        if (overLimit == null) {
          record(round, nextStep, seen, response, span.traceparent());
          return;
        }
      }
      String error = overLimit != null ? "the response was refused (" + overLimit.code() + "): " + overLimit.getMessage()
          : ar.failed() ? String.valueOf(ar.cause().getMessage()) : "the model answered nothing";
      int max = agent.modelRetry().maxAttempts();
      if (attempt < max) {
        long delay = Math.max(1, agent.modelRetry().backoffMillis(attempt + 1));
        // a model client's error may quote the API key it was given
        JsonObject data = new JsonObject().put("step", nextStep).put("attempt", attempt)
            .put("error", Redaction.scrub(error)).put("retryInMs", delay);
        engine.steps().appendEvent(EventType.MODEL_ATTEMPT_FAILED.wireName(), turnId(nextStep), null, data)
            .onComplete(j -> {
              if (j.failed() && StepWriter.isFencing(j.cause())) {
                round.tryFail(j.cause());
                return;
              }
              emit(EventType.MODEL_ATTEMPT_FAILED.wireName(), turnId(nextStep), data);
              clock.setTimer(delay, t -> runModel(round, nextStep, attempt + 1));
            });
        return;
      }
      String message = "the model failed " + attempt + " time(s): " + Redaction.scrub(error);
      end(round, AgentReply.MODEL_FAILED, null, nextStep, message, conversation.size(),
          EventType.MODEL_FAILED.wireName());
    });
  }

  private void record(Promise<Void> round, long nextStep, long seen, ModelResponse response, String traceparent) {
    String turnId = response.hasToolCalls() ? turnId(nextStep) : null;
    long now = clock.millis();
    JsonObject entry = new JsonObject().put("type", "model").put("step", nextStep).put("seen", seen)
        .put("response", response.toJson()).put("at", now);
    if (turnId != null) {
      entry.put("turnId", turnId);
      if (traceparent != null) {
        entry.put("traceparent", traceparent);
      }
    }
    JsonObject data = response.toJson().put("step", nextStep).put("model", agent.model().describe());
    conversation.append(() -> engine.steps().modelResponse(nextStep, turnId, entry, data))
        .onComplete(ar -> {
          if (ar.failed()) {
            round.tryFail(ar.cause());
            return;
          }
          step = Math.max(step, nextStep);
          if (ar.result().created()) {
            emit(EventType.MODEL_RESPONSE.wireName(), turnId, data);
          }
          next(round);
        });
  }

  private void end(Promise<Void> round, String status, String text, long atStep, String error, long covers,
                   String eventType) {
    JsonObject entry = new JsonObject().put("type", "end").put("status", status).put("step", atStep)
        .put("covers", covers).put("at", clock.millis());
    if (text != null) {
      entry.put("text", text);
    }
    if (error != null) {
      entry.put("error", error);
    }
    JsonObject data = entry.copy();
    data.remove("type");
    data.remove("covers");
    String endId = "c" + covers;
    conversation.append(() -> engine.steps().roundEnded(endId, eventType, entry, data)).onComplete(ar -> {
      if (ar.failed()) {
        round.tryFail(ar.cause());
        return;
      }
      AgentReply reply = reply(conversation.get((int) ar.result().index()));
      if (ar.result().created()) {
        emit(eventType, null, reply.toJson());
      }
      List<Waiter> answered = new ArrayList<>();
      waiters.removeIf(w -> {
        if (w.index() < covers) {
          answered.add(w);
          return true;
        }
        return false;
      });
      answered.forEach(w -> w.promise().tryComplete(reply));
      round.tryComplete();
    });
  }

  // ------------------------------------------------------------------ the conversation

  /** Gives calls without a provider id one derived from the step, so results can be paired with them. */
  private static ModelResponse withCallIds(ModelResponse response, long step) {
    if (response.toolCalls().stream().allMatch(c -> c.modelCallId() != null && !c.modelCallId().isBlank())) {
      return response;
    }
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < response.toolCalls().size(); i++) {
      ToolCall c = response.toolCalls().get(i);
      calls.add(c.modelCallId() != null && !c.modelCallId().isBlank() ? c
          : c.withModelCallId("call_" + step + "_" + i));
    }
    return new ModelResponse(response.text(), calls);
  }

  private AgentReply reply(JsonObject end) {
    return new AgentReply(sessionId, end.getString("status"), end.getString("text"), end.getLong("step", 0L),
        end.getString("error"));
  }

  private Future<AgentReply> await(long index) {
    Promise<AgentReply> promise = Promise.promise();
    waiters.add(new Waiter(index, promise));
    return promise.future();
  }

  /** After a restart or a takeover: the reply addresses journaled with the messages of the open round. */
  private void answerJournaledAddresses() {
    int lastEnd = conversation.lastIndexOf("end");
    for (int i = lastEnd < 0 ? 0 : (int) (long) conversation.get(lastEnd).getLong("covers"); i < conversation.size();
         i++) {
      JsonObject e = conversation.get(i);
      if ("user".equals(e.getString("type")) && e.getString(ReplyAddresses.FIELD) != null) {
        replyAddresses.answerWhenDone(e.getString(ReplyAddresses.FIELD), e.getString("messageId"), await(i));
      }
    }
  }

  private void failWaiters(Throwable err) {
    List<Waiter> all = new ArrayList<>(waiters);
    waiters.clear();
    all.forEach(w -> w.promise().tryFail(err));
  }

  private void emit(String type, String turnId, JsonObject data) {
    StepEvents.emit(events, clock.millis(), sessionId, type, turnId, null, data);
  }

  private <T> Future<T> onContext(Supplier<Future<T>> action) {
    return Contexts.onContext(context, action);
  }
}

package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.LogIds;
import dev.ratchet.runtime.journal.ConversationAppend;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The journal's conversation of one session as its {@link AgentLoop} appended or read it, index for
 * index: user messages, model responses and round ends; and the messages a model sees of it.
 * Touched on the loop's context only.
 */
final class Conversation {

  private static final Logger LOG = LoggerFactory.getLogger(Conversation.class);

  private final SessionJournal journal;
  private final String sessionId;
  private final List<JsonObject> entries = new ArrayList<>();
  private Future<?> appends = Future.succeededFuture();

  Conversation(SessionJournal journal, String sessionId) {
    this.journal = journal;
    this.sessionId = sessionId;
  }

  /** Takes the journal's list as it is now, after a restart. */
  void reset(List<JsonObject> list) {
    entries.clear();
    entries.addAll(list);
  }

  List<JsonObject> entries() {
    return entries;
  }

  int size() {
    return entries.size();
  }

  JsonObject get(int index) {
    return entries.get(index);
  }

  /** A round is open while a user message is not covered by a round end. */
  boolean open() {
    long covered = 0;
    int lastEnd = lastIndexOf("end");
    if (lastEnd >= 0) {
      covered = entries.get(lastEnd).getLong("covers");
    }
    for (int i = (int) covered; i < entries.size(); i++) {
      if ("user".equals(entries.get(i).getString("type"))) {
        return true;
      }
    }
    return false;
  }

  int lastIndexOf(String type) {
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (type.equals(entries.get(i).getString("type"))) {
        return i;
      }
    }
    return -1;
  }

  /** The first round end that covers the entry at {@code index}, or null when none does yet. */
  JsonObject endCovering(long index) {
    for (int i = (int) Math.min(entries.size() - 1, Integer.MAX_VALUE); i >= 0; i--) {
      JsonObject e = entries.get(i);
      if ("end".equals(e.getString("type")) && e.getLong("covers") > index) {
        JsonObject first = e;
        for (int j = i - 1; j >= 0; j--) {
          JsonObject earlier = entries.get(j);
          if ("end".equals(earlier.getString("type"))) {
            if (earlier.getLong("covers") > index) {
              first = earlier;
            } else {
              break;
            }
          }
        }
        return first;
      }
    }
    return null;
  }

  /**
   * Appends to the journal's conversation one at a time, so that the entries here stay the
   * journal's list index for index.
   */
  Future<ConversationAppend> append(Supplier<Future<ConversationAppend>> op) {
    Promise<ConversationAppend> promise = Promise.promise();
    appends = appends.transform(ignored -> {
      Future<ConversationAppend> f = op.get().onComplete(ar -> {
        if (ar.succeeded()) {
          ConversationAppend a = ar.result();
          if (a.index() == entries.size()) {
            entries.add(a.entry());
          } else if (a.index() > entries.size()) {
            // another writer appended meanwhile (not expected under one owner): read the list again
            LogIds.session(sessionId).warn(LOG, "the conversation moved on elsewhere; reading it again");
          }
        }
      });
      Future<ConversationAppend> synced = f.compose(a -> a.index() >= entries.size()
          ? journal.conversation(sessionId).map(list -> {
              reset(list);
              return a;
            })
          : Future.succeededFuture(a));
      synced.onComplete(promise);
      return synced.otherwiseEmpty();
    });
    return promise.future();
  }

  /**
   * The messages a model sees: the system prompt (null or blank: none), then each response placed
   * right after the entries it saw, each tool call followed by its result from {@code results} (by step).
   */
  List<ChatMessage> messages(String systemPrompt, Map<Long, TurnResult> results) {
    List<ChatMessage> out = new ArrayList<>();
    if (systemPrompt != null && !systemPrompt.isBlank()) {
      out.add(ChatMessage.system(systemPrompt));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      String type = entries.get(i).getString("type");
      if ("user".equals(type) || "model".equals(type)) {
        order.add(i);
      }
    }
    order.sort(Comparator.comparingDouble(i -> {
      JsonObject e = entries.get(i);
      return "model".equals(e.getString("type")) ? e.getLong("seen") - 0.5 : i;
    }));
    for (int i : order) {
      JsonObject e = entries.get(i);
      if ("user".equals(e.getString("type"))) {
        out.add(ChatMessage.user(e.getString("text")));
        continue;
      }
      ModelResponse response = ModelResponse.fromJson(e.getJsonObject("response"));
      out.add(ChatMessage.assistant(response.text(), response.toolCalls()));
      TurnResult result = results.get(e.getLong("step"));
      for (int c = 0; c < response.toolCalls().size(); c++) {
        ToolCall call = response.toolCalls().get(c);
        String content = result == null || c >= result.calls().size()
            ? "{\"outcome\":\"failed\",\"error\":\"no result was recorded for this call\"}"
            : toolContent(result.calls().get(c));
        out.add(ChatMessage.toolResult(call.modelCallId(), call.name(), content));
      }
    }
    return out;
  }

  /** A call's record as the model reads it: the result when it succeeded, else the outcome and the error. */
  static String toolContent(CallResult r) {
    if (r.outcome() == Outcome.SUCCEEDED) {
      Object value = r.result();
      JsonObject json = new JsonObject().put("outcome", "succeeded");
      if (value != null) {
        json.put("result", value);
      }
      return edited(r, json).encode();
    }
    JsonObject json = new JsonObject().put("outcome", r.outcome().wireName()).put("error", r.error());
    if (r.skipped()) {
      json.put("skipped", true);
    }
    return edited(r, json).encode();
  }

  /** Tells the model that a person changed its arguments before approving, and what the call ran with. */
  private static JsonObject edited(CallResult r, JsonObject json) {
    if (r.approval() == null || !r.approval().edited()) {
      return json;
    }
    String reason = r.approval().reason();
    json.put("edited", new JsonObject().put("by", r.approval().approver()).put("reason", reason)
        .put("arguments", r.approval().editedArguments().copy()));
    json.put("note", "a person (" + r.approval().approver() + ") edited the arguments before approving"
        + (reason == null || reason.isBlank() ? "" : " (" + reason + ")") + "; the call ran with "
        + r.approval().editedArguments().encode() + ", not the arguments you sent");
    return json;
  }
}

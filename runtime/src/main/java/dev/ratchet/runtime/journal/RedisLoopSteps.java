package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

import java.util.List;

/**
 * The Redis journal's steps of the agent loop (user messages, model responses, round ends), each a
 * fenced script, and the recovery index they and turns keep ({@code activeSessions}).
 */
record RedisLoopSteps(RedisConnections redis, JournalKeys keys) implements LoopSteps {

  @Override
  public Future<ConversationAppend> messageUser(UserMessage message) {
    String sessionId = message.sessionId();
    JsonObject entry = message.entry();
    String now = now();
    List<Request> indexes = List.of(
        Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId),
        Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId));
    return redis.batch(indexes)
        .compose(v -> redis.run(Script.MESSAGE_USER, loopKeys(sessionId),
            List.of(String.valueOf(message.epoch()), message.messageId(), entry.encode(), message.agent(), now,
                message.eventData().encode(), message.callerId() == null ? "" : message.callerId(),
                message.creator() == null ? "" : message.creator())))
        .map(r -> new ConversationAppend(Long.parseLong(r.get(1).toString()), "ok".equals(r.get(0).toString()), entry));
  }

  /**
   * Records a model response for a loop step once. Fails with {@code STEP_OUT_OF_ORDER} when the
   * step does not follow the last recorded one; answers the first record when the step has one.
   */
  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    String now = now();
    List<Request> indexes = List.of(Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId));
    return redis.batch(indexes)
        .compose(v -> redis.run(Script.MODEL_RESPONSE, loopKeys(sessionId),
            List.of(String.valueOf(epoch), String.valueOf(step), entry.encode(), now, eventData.encode(),
                turnId == null ? "" : turnId)))
        .compose(r -> {
          String status = r.get(0).toString();
          if ("out_of_order".equals(status)) {
            return Future.failedFuture(new RatchetException(ErrorCode.STEP_OUT_OF_ORDER, "session " + sessionId
                + ": step " + step + " does not follow the last recorded step " + r.get(1)));
          }
          long index = Long.parseLong(r.get(1).toString());
          return Future.succeededFuture("ok".equals(status) ? new ConversationAppend(index, true, entry)
              : new ConversationAppend(index, false, new JsonObject(r.get(2).toString())));
        });
  }

  /** Ends a round once per end id: {@code message.assistant} with the answer, or {@code model.failed}. */
  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    return redis.run(Script.MESSAGE_ASSISTANT, loopKeys(sessionId),
        List.of(String.valueOf(epoch), endId, entry.encode(), now(), eventType, eventData.encode()))
        .map(r -> new ConversationAppend(Long.parseLong(r.get(1).toString()), "ok".equals(r.get(0).toString()), entry));
  }

  private List<String> loopKeys(String sessionId) {
    return List.of(keys.meta(sessionId), keys.events(sessionId), keys.loop(sessionId), keys.conversation(sessionId));
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}

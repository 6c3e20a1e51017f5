package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.engine.StepWriter;
import io.vertx.core.Future;

import java.util.HashSet;
import java.util.Set;

/**
 * The reply addresses of user messages that this node answers when their round ends, each once:
 * the address a message was sent with, or the one journaled with it when this node continues its
 * round after a restart or a takeover. A round that ends because this node no longer drives the
 * session is not answered: the next owner answers. Used on the loop's context only.
 */
final class ReplyAddresses {

  /** The field of a journaled user message that holds the address its reply goes to. */
  static final String FIELD = "replyAddress";

  /** Message id and address of each reply this node is to send. */
  private final Set<String> answering = new HashSet<>();
  private MessageReplies replies = MessageReplies.NONE;

  void replies(MessageReplies replies) {
    this.replies = replies;
  }

  /** Answers {@code replyAddress} (null: none) with {@code reply} once it is there. */
  void answerWhenDone(String replyAddress, String messageId, Future<AgentReply> reply) {
    String key = messageId + '\n' + replyAddress;
    if (replyAddress == null || !answering.add(key)) {
      return;
    }
    reply.onComplete(ar -> {
      answering.remove(key);
      if (ar.succeeded() || !StepWriter.isFencing(ar.cause()) && !RatchetException.is(ar.cause(), ErrorCode.STOPPED)) {
        replies.answer(replyAddress, messageId, ar);
      }
    });
  }
}

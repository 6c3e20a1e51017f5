package dev.ratchet.server.cli;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.verticles.http.JournalReader;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Prints a session's journal as a readable timeline. Everything it prints from the journal is
 * escaped ({@link VisibleText}, the rule the dashboard follows too): a stored id or text cannot forge a line or drive the terminal.
 */
@CommandLine.Command(name = "inspect", mixinStandardHelpOptions = true, description = "Print a session's journal as a timeline.")
public final class InspectCommand implements Callable<Integer> {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
      .withZone(ZoneId.systemDefault());

  @CommandLine.Parameters(index = "0", description = "the session id")
  String sessionId;

  @CommandLine.Option(names = "--key-prefix", description = "overrides journal.keyPrefix (the journal's keys in a shared Redis)")
  String keyPrefix;

  @CommandLine.Mixin
  JournalTarget target = new JournalTarget();

  @CommandLine.Option(names = "--json",
      description = "print the events as JSON lines (a completed turn's with its results)")
  boolean json;

  @Override
  public Integer call() throws Exception {
    JsonObject cfg = target.configuration();
    if (keyPrefix != null) {
      cfg.put("journal", cfg.getJsonObject("journal", new JsonObject()).copy().put("keyPrefix", keyPrefix));
    }
    Vertx vertx = Vertx.vertx();
    try {
      RedisJournal journal;
      try {
        journal = target.openJournal(vertx, cfg);
      } catch (IOException e) {
        // no embedded Redis that `run` started in the data directory
        System.err.println(e.getMessage());
        return 1;
      }
      JsonObject info = journal.queries().sessionInfo(sessionId).await();
      List<JsonObject> archived = target.archive(vertx, cfg).read(sessionId).await();
      if (info.isEmpty() && archived.isEmpty()) {
        System.err.println(VisibleText.escape("no session '" + sessionId + "' in the journal at "
            + journal.describe() + " or in its archive"));
        return 1;
      }
      if (info.isEmpty()) {
        // retention forgot the session: its history is in the archive alone
        JsonObject meta = archived.stream().filter(r -> "session".equals(r.getString("kind"))).reduce((a, b) -> b)
            .map(r -> r.getJsonObject("meta", new JsonObject())).orElse(new JsonObject());
        System.out.println(VisibleText.escape("session " + sessionId + "  agent " + meta.getString("agent")
            + "  archived, forgotten by the journal"));
      } else {
        System.out.println(VisibleText.escape("session " + sessionId + "  agent " + info.getString("agent")
            + "  epoch " + info.getLong("epoch") + "  owner " + info.getString("owner")
            + (info.getLong("archivedAt", 0L) >= info.getLong("updatedAt", Long.MAX_VALUE) ? "  archived" : "")));
      }
      // what retention archived comes first: it is older than anything the journal still holds
      for (JsonObject record : archived) {
        if (!"turn".equals(record.getString("kind"))) {
          continue;
        }
        if (json) {
          System.out.println(VisibleText.json(record.put("archived", true).encode()));
        } else {
          for (Object e : record.getJsonArray("events", new io.vertx.core.json.JsonArray())) {
            System.out.println("[archived] " + line((JsonObject) e));
          }
        }
      }
      String after = null;
      while (true) {
        List<JsonObject> events = journal.queries().events(sessionId, after, 500).await();
        if (json) {
          events = JournalReader.withResults(journal.queries(), sessionId, events).await();
        }
        if (events.isEmpty()) {
          break;
        }
        for (JsonObject e : events) {
          System.out.println(json ? VisibleText.json(e.encode()) : line(e));
          after = e.getString("id");
        }
      }
      return 0;
    } finally {
      vertx.close();
      target.close();
    }
  }

  /** One event as one line, every part of it that comes from the journal escaped. */
  static String line(JsonObject e) {
    return VisibleText.escape(rawLine(e));
  }

  private static String rawLine(JsonObject e) {
    JsonObject d = e.getJsonObject("data", new JsonObject());
    String at = TIME.format(Instant.ofEpochMilli(e.getLong("at", 0L)));
    String type = e.getString("type");
    String where = (e.getString("turn") == null ? "" : " turn " + e.getString("turn"))
        + (e.getString("call") == null ? "" : " " + e.getString("call"));
    EventType known = EventType.ofWireName(type);
    String what = known == null ? d.encode() : describe(known, d);
    return at + "  " + String.format("%-20s", type) + where + "  " + what;
  }

  private static String describe(EventType type, JsonObject d) {
    switch (type) {
      case TURN_SUBMITTED:
        return d.getJsonArray("calls").size() + " call(s): " + d.getJsonArray("calls").stream()
            .map(c -> ((JsonObject) c).getString("name")).toList();
      case CALL_STARTED:
        return d.getString("tool") + " attempt " + d.getInteger("attempt");
      case CALL_ATTEMPT_FAILED:
        return "attempt " + d.getInteger("attempt") + " failed: " + d.getString("error");
      case CALL_COMPLETED:
        return d.getString("tool") + " [" + d.getString("effectClass") + "] " + d.getString("outcome")
            + (d.getBoolean("skipped", false) ? " (skipped)" : "") + ", " + d.getInteger("attempts") + " attempt(s), "
            + d.getLong("durationMs") + " ms" + (d.getString("error") == null ? "" : ": " + d.getString("error"));
      case APPROVAL_REQUESTED:
        return d.getString("tool") + " waits for approval (" + d.getString("askedBecause") + ")";
      case APPROVAL_DECIDED:
        return d.getString("status") + " by " + d.getString("approver")
            + (d.getString("reason", "").isEmpty() ? "" : ": " + d.getString("reason"));
      case TURN_COMPLETED:
        return (d.containsKey("outcomes") ? d.getJsonArray("outcomes").getList()
            : d.getJsonArray("results", new io.vertx.core.json.JsonArray()).stream()
                .map(r -> ((JsonObject) r).getString("outcome")).toList()).toString();
      case CALL_RECONCILED:
        return "reconciled " + d.getString("outcome") + " by " + d.getString("by") + ": " + d.getString("note");
      case MESSAGE_USER:
        return "user: " + d.getString("text");
      case MODEL_RESPONSE:
        return "step " + d.getValue("step") + (d.getJsonArray("toolCalls", new io.vertx.core.json.JsonArray()).isEmpty()
            ? "" : " asks for " + d.getJsonArray("toolCalls").stream().map(c -> ((JsonObject) c).getString("name")).toList())
            + (d.getString("text") == null ? "" : ": " + d.getString("text"));
      case MODEL_ATTEMPT_FAILED:
        return "step " + d.getValue("step") + " attempt " + d.getValue("attempt") + " failed: " + d.getString("error");
      case MESSAGE_ASSISTANT:
        return d.getString("status") + ": " + d.getString("text");
      case MODEL_FAILED:
        return d.getString("error");
      case SESSION_CLAIMED:
        return "owned by " + d.getString("owner") + " (epoch " + d.getValue("epoch") + ")";
      default:
        return d.encode();
    }
  }
}

package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.EventType;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;

import java.util.List;

/**
 * Reads a session's stream entries back as step events. A step journals its events in one entry
 * (a group commit's outcomes, the turn's completion and the next write's start). The scripts of
 * a turn's steps write the entry's turn and time once, then one field per event: its name is the
 * event's type, a space and its call when it has one ({@link #field}), its value the event's data
 * ({@code ''} for none). Every other entry holds one event, as the fields
 * {@code type, turn, call, at, data} (those it has).
 *
 * <p>An event's id is its entry's id when it is the entry's last event, else the entry's id, a dot
 * and the event's index in the entry: reading after an id continues with the next event, whether it
 * is in the same entry or a later one.
 */
final class StepEntries {

  private StepEntries() {
  }

  /** Where a read after an event id starts: the entry to read from and how many of its events to skip. */
  record After(String entryId, int skip) {

    /** The position after {@code eventId}, or null to read from the start. */
    static After of(String eventId) {
      if (eventId == null) {
        return null;
      }
      int dot = eventId.lastIndexOf('.');
      if (dot > 0 && dot < eventId.length() - 1 && isDigits(eventId, dot + 1)) {
        return new After(eventId.substring(0, dot), Integer.parseInt(eventId.substring(dot + 1)) + 1);
      }
      return new After(eventId, 0);
    }

    /** The XRANGE start: inclusive when part of the entry is still to be read. */
    String rangeStart() {
      return skip > 0 ? entryId : "(" + entryId;
    }

    /** Entries to read for {@code count} events: one more when the first may have nothing left. */
    int entriesFor(int count) {
      return skip > 0 ? count + 1 : count;
    }
  }

  private static boolean isDigits(String s, int from) {
    if (s.length() - from > 9) {
      return false;
    }
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * Adds the events of one XRANGE entry to {@code into}, up to {@code count} events in all,
   * leaving out those at or before {@code after}.
   */
  static void expand(Response entry, After after, List<JsonObject> into, int count) {
    Response fields = entry.get(1);
    if (fields.size() > 0 && "type".equals(fields.get(0).toString())) {
      expandTyped(entry, after, into, count);
    } else {
      expandCompact(entry, after, into, count);
    }
  }

  /** The name of a compact entry's field for an event of {@code type} about the call {@code callId}. */
  static String field(String type, String callId) {
    return type + ' ' + callId;
  }

  /** {@link #field} as the bytes a request carries. */
  static byte[] fieldBytes(String type, String callId) {
    return RequestBytes.join(type, " ", callId);
  }

  private static int skipIn(String entryId, After after) {
    return after != null && after.skip() > 0 && after.entryId().equals(entryId) ? after.skip() : 0;
  }

  private static String eventId(String entryId, int index, int events) {
    return index >= events - 1 ? entryId : entryId + "." + index;
  }

  private static void expandCompact(Response entry, After after, List<JsonObject> into, int count) {
    String entryId = entry.get(0).toString();
    Response fields = entry.get(1);
    String turn = null;
    Long at = null;
    int first = 0;
    // event names hold a dot, so they are never "turn" or "at"
    for (; first + 1 < fields.size(); first += 2) {
      String name = fields.get(first).toString();
      if ("turn".equals(name)) {
        String value = fields.get(first + 1).toString();
        turn = value.isEmpty() ? null : value;
      } else if ("at".equals(name)) {
        at = Long.parseLong(fields.get(first + 1).toString());
      } else {
        break;
      }
    }
    int events = (fields.size() - first) / 2;
    int skip = skipIn(entryId, after);
    for (int index = skip; index < events; index++) {
      String name = fields.get(first + 2 * index).toString();
      String value = fields.get(first + 2 * index + 1).toString();
      int space = name.indexOf(' ');
      JsonObject event = new JsonObject().put("id", eventId(entryId, index, events))
          .put("type", space < 0 ? name : name.substring(0, space));
      if (turn != null) {
        event.put("turn", turn);
      }
      if (at != null) {
        event.put("at", at);
      }
      if (space >= 0) {
        event.put("call", name.substring(space + 1));
      }
      // no data is how turn.submitted says that its data is the turn's spec
      if (!value.isEmpty()) {
        event.put("data", new JsonObject(value));
      }
      if (!add(into, event, count)) {
        return;
      }
    }
  }

  private static void expandTyped(Response entry, After after, List<JsonObject> into, int count) {
    String entryId = entry.get(0).toString();
    if (skipIn(entryId, after) > 0) {
      return;
    }
    Response fields = entry.get(1);
    JsonObject event = new JsonObject().put("id", entryId);
    for (int i = 0; i + 1 < fields.size(); i += 2) {
      String name = fields.get(i).toString();
      String value = fields.get(i + 1).toString();
      if ("data".equals(name)) {
        event.put("data", value.isEmpty() ? new JsonObject() : new JsonObject(value));
      } else if ("at".equals(name)) {
        event.put("at", Long.parseLong(value));
      } else if (!value.isEmpty()) {
        event.put(name, value);
      }
    }
    add(into, event, count);
  }

  private static boolean add(List<JsonObject> into, JsonObject event, int count) {
    if (into.size() >= count) {
      return false;
    }
    into.add(event);
    return true;
  }

  /**
   * The data a {@code call.completed} event always carried, from what the stream holds (the outcome
   * and the result's size) and the call's record as first journaled: the record without its result,
   * the result's size in its place.
   */
  static JsonObject completedData(JsonObject data, String record) {
    if (record == null) {
      return data;
    }
    JsonObject whole = new JsonObject(record);
    whole.remove("result");
    Object bytes = data.getValue("resultBytes");
    if (bytes != null) {
      whole.put("resultBytes", bytes);
    }
    return whole;
  }

  /** Whether a {@code call.completed} event's data is the short form that the call's record completes. */
  static boolean needsRecord(JsonObject event) {
    JsonObject data = event.getJsonObject("data");
    return EventType.CALL_COMPLETED.wireName().equals(event.getString("type")) && event.getString("call") != null && data != null;
  }
}

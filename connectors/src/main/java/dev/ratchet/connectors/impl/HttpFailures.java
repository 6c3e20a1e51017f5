package dev.ratchet.connectors.impl;

import dev.ratchet.runtime.ToolNotSentException;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Tells failures that provably happened before a request left the process from those that may have reached the provider. */
public final class HttpFailures {

  private HttpFailures() {
  }

  /**
   * True when nothing can have been sent: no connection was ever made (refused, unresolvable host,
   * connect timeout) or the request was refused locally.
   */
  public static boolean neverSent(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ToolNotSentException || c instanceof ConnectException || c instanceof UnknownHostException
          || c instanceof UnresolvedAddressException) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }

  /** A failure to send, as the runtime expects it; the cause is kept out of the message so nothing sensitive leaks. */
  public static Throwable asNotSent(String provider, Throwable t) {
    if (t instanceof ToolNotSentException) {
      return t;
    }
    return new ToolNotSentException("could not connect to " + provider + " (" + describe(t) + "); nothing was sent");
  }

  public static String describe(Throwable t) {
    String name = t.getClass().getSimpleName();
    String msg = t.getMessage();
    return msg == null || msg.isBlank() ? name : name + ": " + msg;
  }

  /** Retry-After as milliseconds: delay-seconds or an HTTP date; 0 when absent or unreadable. */
  public static long retryAfterMillis(String header) {
    if (header == null || header.isBlank()) {
      return 0;
    }
    String h = header.trim();
    try {
      return Math.max(0, Long.parseLong(h) * 1000);
    } catch (NumberFormatException e) {
      try {
        long at = ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        return Math.max(0, at - System.currentTimeMillis());
      } catch (DateTimeParseException e2) {
        return 0;
      }
    }
  }

  /** At most {@code max} characters of a provider's body, for error messages. */
  public static String excerpt(String body, int max) {
    if (body == null) {
      return "";
    }
    String s = body.replaceAll("\\s+", " ").trim();
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }
}

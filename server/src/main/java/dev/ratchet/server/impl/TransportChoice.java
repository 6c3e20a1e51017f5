package dev.ratchet.server.impl;

import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;

import java.util.Locale;

/**
 * The network transport of the Vert.x instance that Ratchet's own commands ({@code run},
 * {@code bench}) create, from the setting {@code node.transport}: {@code native} is Linux's epoll
 * through Netty's native library, which the jar carries for x86-64 Linux, and the JDK's NIO where
 * that library does not load; {@code nio} is always the JDK's. At a moderate load a turn's steps
 * are mostly single round trips to Redis, and epoll spent 7–17 % less of the runtime's CPU per call
 * on them than NIO on the development machine.
 */
public final class TransportChoice {

  public static final String NATIVE = "native";
  public static final String NIO = "nio";

  private final Transport transport;
  private final String description;

  private TransportChoice(Transport transport, String description) {
    this.transport = transport;
    this.description = description;
  }

  /** The transport for a setting's value; null means the default, {@code native}. */
  public static TransportChoice of(String setting) {
    String name = setting == null ? NATIVE : setting.trim().toLowerCase(Locale.ROOT);
    switch (name) {
      case NIO:
        return new TransportChoice(Transport.NIO, "the JDK's NIO (node.transport: nio)");
      case NATIVE:
        Transport epoll = Transport.EPOLL;
        if (epoll != null && epoll.available()) {
          return new TransportChoice(epoll, "Linux epoll (Netty's native transport)");
        }
        Throwable cause = epoll == null ? null : epoll.unavailabilityCause();
        return new TransportChoice(Transport.NIO, "the JDK's NIO (Netty's native epoll does not load here"
            + (cause == null || cause.getMessage() == null ? "" : ": " + firstLine(cause.getMessage())) + ")");
      default:
        throw new IllegalArgumentException("the network transport is '" + NATIVE + "' or '" + NIO + "', not '" + setting
            + "'");
    }
  }

  public Transport transport() {
    return transport;
  }

  /** A new Vert.x instance on this transport. */
  public Vertx vertx() {
    return Vertx.builder().withTransport(transport).build();
  }

  /** The transport's short name, as the bench's JSON gives it: {@code epoll} or {@code nio}. */
  public String name() {
    return transport.name().toLowerCase(Locale.ROOT);
  }

  /** Whether this is Netty's native epoll rather than the JDK's NIO. */
  public boolean isNative() {
    return transport != Transport.NIO;
  }

  /** What a start-up line says about it: which transport, and why NIO where native was asked for. */
  public String describe() {
    return description;
  }

  private static String firstLine(String message) {
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}

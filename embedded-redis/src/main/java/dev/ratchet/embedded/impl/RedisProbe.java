package dev.ratchet.embedded.impl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A blocking connection to a redis-server for the moments before any event loop runs: whether a
 * server answers, whose it is (by password), its pid, and asking it to shut down. Every read waits
 * at most the given time, so a server that accepts but never answers cannot hang a start.
 */
public final class RedisProbe implements AutoCloseable {

  /** A reply: an error ({@code -ERR …}) or the text of a simple, integer or bulk reply (arrays joined by newlines). */
  public record Reply(boolean error, String text) {
  }

  private final SocketChannel channel;
  private final Selector selector;
  private final long timeoutMillis;
  private final ByteBuffer in = ByteBuffer.allocate(16 * 1024).flip();

  private RedisProbe(SocketChannel channel, long timeoutMillis) throws IOException {
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
    channel.configureBlocking(false);
    this.selector = Selector.open();
    channel.register(selector, SelectionKey.OP_READ);
  }

  /** Connects to the server's Unix socket when there is one, else to its port on 127.0.0.1. */
  public static RedisProbe connect(Path socket, int port, long timeoutMillis) throws IOException {
    SocketAddress address = socket != null ? UnixDomainSocketAddress.of(socket)
        : new InetSocketAddress("127.0.0.1", port);
    SocketChannel channel = SocketChannel.open(socket != null ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET);
    try {
      channel.connect(address);
      return new RedisProbe(channel, timeoutMillis);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Sends one command and reads its reply; an {@link IOException} when the connection ends first or nothing comes in time. */
  public Reply call(String... args) throws IOException {
    StringBuilder out = new StringBuilder().append('*').append(args.length).append("\r\n");
    for (String arg : args) {
      out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
    }
    ByteBuffer request = ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.UTF_8));
    while (request.hasRemaining()) {
      channel.write(request);
    }
    return read();
  }

  /**
   * Sends a command after which the server closes the connection ({@code SHUTDOWN}): the refusal
   * it answers with when it does not stop, else empty.
   */
  public Optional<String> callExpectingClose(String... args) {
    try {
      Reply reply = call(args);
      return reply.error() ? Optional.of(reply.text()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The {@code process_id} in the server's {@code INFO server}, or -1 when the server does not tell it. */
  public long pid() throws IOException {
    Reply info = call("INFO", "server");
    if (info.error()) {
      return -1;
    }
    for (String line : info.text().split("\r?\n")) {
      if (line.startsWith("process_id:")) {
        return Long.parseLong(line.substring("process_id:".length()).trim());
      }
    }
    return -1;
  }

  private Reply read() throws IOException {
    String line = line();
    char kind = line.isEmpty() ? '?' : line.charAt(0);
    String rest = line.isEmpty() ? "" : line.substring(1);
    switch (kind) {
      case '+', ':':
        return new Reply(false, rest);
      case '-':
        return new Reply(true, rest);
      case '$': {
        int length = Integer.parseInt(rest);
        if (length < 0) {
          return new Reply(false, null);
        }
        byte[] bulk = bytes(length + 2);
        return new Reply(false, new String(bulk, 0, length, StandardCharsets.UTF_8));
      }
      case '*': {
        int count = Integer.parseInt(rest);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < count; i++) {
          Reply element = read();
          all.append(i == 0 ? "" : "\n").append(element.text());
        }
        return new Reply(false, all.toString());
      }
      default:
        throw new IOException("not a Redis reply: " + line);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = next();
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
      }
      line.write(b);
      previous = b;
    }
  }

  private byte[] bytes(int n) throws IOException {
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) next();
    }
    return out;
  }

  private int next() throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (!in.hasRemaining()) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        throw new IOException("no answer within " + timeoutMillis + " ms");
      }
      selector.select(left);
      selector.selectedKeys().clear();
      in.compact();
      int n = channel.read(in);
      in.flip();
      if (n < 0) {
        throw new IOException("the server closed the connection");
      }
    }
    return in.get() & 0xff;
  }

  @Override
  public void close() {
    try {
      selector.close();
    } catch (IOException e) {
      // closing anyway
    }
    try {
      channel.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}

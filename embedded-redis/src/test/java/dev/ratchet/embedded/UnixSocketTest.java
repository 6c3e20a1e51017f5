package dev.ratchet.embedded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class UnixSocketTest {

  @TempDir
  Path tmp;

  @Test
  void theEmbeddedRedisAnswersOnASocketInItsDataDirectory() throws IOException {
    assumeFalse(System.getProperty("os.name").toLowerCase().startsWith("windows"), "no Unix sockets");
    try (RedisServerProcess server = RedisServerProcess.startTemporary("ratchet-socket", "everysec")) {
      Path socket = server.dataDir().toAbsolutePath().normalize().resolve("redis.sock");

      assertThat(server.unixSocketUrl()).contains("unix://" + socket);
      assertThat(ping(socket)).isEqualTo("+PONG");
    }
  }

  @Test
  void aDataDirectoryTooDeepForASocketAddressLeavesTheServerOnTcpAlone() throws IOException {
    Path deep = tmp.resolve("d".repeat(60)).resolve("e".repeat(60));
    try (RedisServerProcess server = RedisServerProcess.start(0, deep, "everysec")) {
      assertThat(server.unixSocketUrl()).isEmpty();
      assertThat(Files.exists(deep.resolve("redis.sock"))).isFalse();
      assertThat(tcpPing(server.port())).isEqualTo("+PONG");
    }
  }

  private static String ping(Path socket) throws IOException {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(ByteBuffer.wrap("PING\r\n".getBytes(StandardCharsets.US_ASCII)));
      ByteBuffer reply = ByteBuffer.allocate(64);
      while (reply.position() < 7 && channel.read(reply) >= 0) {
        // a short reply may come in pieces
      }
      return new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII).trim();
    }
  }

  private static String tcpPing(int port) throws IOException {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[7];
      int n = in.readNBytes(buf, 0, 7);
      return new String(buf, 0, n, StandardCharsets.US_ASCII).trim();
    }
  }
}

package dev.ratchet.embedded;

import dev.ratchet.embedded.impl.LocalProcesses;
import dev.ratchet.embedded.impl.RedisProbe;
import dev.ratchet.host.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The embedded Redis that {@code ratchet run} keeps the journal in is the account's alone: no TCP
 * port, a password from a file only the account reads, a private data directory, and no second
 * server on one data directory, whether a killed runtime left it or someone else started it.
 */
class EmbeddedRedisSecurityTest {

  @TempDir
  Path tmp;

  private final List<AutoCloseable> started = new ArrayList<>();
  private Vertx vertx;

  @BeforeEach
  void linux() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "reads listening sockets and command lines in /proc");
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : started) {
      c.close();
    }
    if (vertx != null) {
      vertx.close().await(20, TimeUnit.SECONDS);
    }
  }

  private EmbeddedRedis start(Path dir) throws IOException {
    return start(dir, 0);
  }

  private EmbeddedRedis start(Path dir, int port) throws IOException {
    EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.findBinary(),
        new EmbeddedRedis.Options(dir, port, "everysec", "normal"));
    started.add(redis);
    return redis;
  }

  @Test
  void theEmbeddedRedisListensOnItsSocketAndOnNoTcpPort() throws Exception {
    EmbeddedRedis redis = start(tmp.resolve("data"));

    assertThat(tcpListeners(redis.server().pid())).isEmpty();
    try (RedisProbe probe = probe(redis)) {
      assertThat(probe.call("AUTH", password(tmp.resolve("data"))).error()).isFalse();
      assertThat(probe.call("CONFIG", "GET", "port").text()).isEqualTo("port\n0");
    }
  }

  @Test
  void aConfiguredPortListensOn127001AndAsksForThePasswordToo() throws Exception {
    int port = FreePorts.next();
    EmbeddedRedis redis = start(tmp.resolve("data"), port);

    assertThat(tcpListeners(redis.server().pid())).containsExactly("127.0.0.1:" + port);
    try (RedisProbe probe = RedisProbe.connect(null, port, 2_000)) {
      assertThat(probe.call("PING").text()).startsWith("NOAUTH");
    }
  }

  @Test
  void aClientWithoutThePasswordIsRefused() throws Exception {
    EmbeddedRedis redis = start(tmp.resolve("data"));

    try (RedisProbe probe = probe(redis)) {
      RedisProbe.Reply ping = probe.call("PING");
      assertThat(ping.error()).isTrue();
      assertThat(ping.text()).startsWith("NOAUTH");
      assertThat(probe.call("AUTH", "0".repeat(64)).error()).isTrue();
      assertThat(probe.call("GET", "anything").text()).startsWith("NOAUTH");
    }
  }

  @Test
  void theJournalsUrlReachesTheServerWithThePassword() throws Exception {
    EmbeddedRedis redis = start(tmp.resolve("data"));
    vertx = Vertx.vertx();

    Redis client = Redis.createClient(vertx, redis.journalUrl());
    client.send(Request.cmd(Command.SET).arg("k").arg("v")).await(20, TimeUnit.SECONDS);
    assertThat(client.send(Request.cmd(Command.GET).arg("k")).await(20, TimeUnit.SECONDS).toString()).isEqualTo("v");
    client.close();
    assertThat(redis.journalUrl()).startsWith("unix://" + tmp.resolve("data").resolve("redis.sock"));
  }

  @Test
  void theDataDirectoryAndItsSecretsAreTheAccountsAlone() throws Exception {
    Path dir = tmp.resolve("data");
    start(dir);

    assertThat(permissions(dir)).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve(EmbeddedRedis.PASSWORD_FILE))).isEqualTo("rw-------");
    assertThat(permissions(dir.resolve(EmbeddedRedis.CONFIG_FILE))).isEqualTo("rw-------");
    assertThat(password(dir)).matches("[0-9a-f]{64}");
  }

  @Test
  void aDataDirectoryOthersCouldReadIsMadePrivateAndSaysSo() throws Exception {
    Path dir = tmp.resolve("data");
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));

    EmbeddedRedis redis = start(dir);

    assertThat(permissions(dir)).isEqualTo("rwx------");
    assertThat(redis.notices()).anyMatch(n -> n.contains("was rwxr-xr-x: made it rwx------"));
  }

  @Test
  void thePasswordIsOnNoCommandLine() throws Exception {
    Path dir = tmp.resolve("data");
    EmbeddedRedis redis = start(dir);

    String cmdline = Files.readString(Path.of("/proc", String.valueOf(redis.server().pid()), "cmdline"),
        StandardCharsets.UTF_8);
    String password = password(dir);
    assertThat(cmdline).isNotEmpty().doesNotContain(password);
    // Redis overwrites its title once it runs; what it was started with was readable until then
    assertThat(redis.server().command()).isNotEmpty().noneMatch(arg -> arg.contains(password));
  }

  /** Starts a server on {@code dir} and stops it; the password it left there. */
  private String passwordOfAStoppedServer(Path dir) throws Exception {
    EmbeddedRedis first = start(dir);
    String password = password(dir);
    first.close();
    return password;
  }

  @Test
  void theSamePasswordServesTheNextStart() throws Exception {
    Path dir = tmp.resolve("data");
    String password = passwordOfAStoppedServer(dir);

    start(dir);

    assertThat(password(dir)).isEqualTo(password);
  }

  @Test
  void aServerThatAKilledRuntimeLeftIsShutDownAndItsJournalKept() throws Exception {
    Path dir = tmp.resolve("data");
    String password = passwordOfAStoppedServer(dir);
    // what a runtime killed with -9 leaves: its server, on the directory's socket, pid file and password
    RedisServerProcess leftover = RedisServerProcess.launch(new RedisServerProcess.Launch(
        RedisServerProcess.findBinary(), -1, dir.toAbsolutePath(), "always", "normal",
        dir.resolve(EmbeddedRedis.CONFIG_FILE), password, dir.resolve(EmbeddedRedis.PID_FILE)));
    started.add(leftover);
    try (RedisProbe probe = RedisProbe.connect(leftover.unixSocket().orElseThrow(), 0, 2_000)) {
      probe.call("AUTH", password);
      assertThat(probe.call("SET", "journal", "kept").error()).isFalse();
    }

    EmbeddedRedis again = start(dir);

    assertThat(LocalProcesses.running(leftover.pid())).isFalse();
    assertThat(again.server().pid()).isNotEqualTo(leftover.pid());
    assertThat(redisServersOn(dir)).containsExactly(again.server().pid());
    assertThat(again.notices()).anyMatch(n -> n.startsWith("stopped the redis-server (pid " + leftover.pid() + ")"));
    try (RedisProbe probe = probe(again)) {
      probe.call("AUTH", password);
      assertThat(probe.call("GET", "journal").text()).isEqualTo("kept");
    }
  }

  @Test
  void someoneElsesServerOnTheDataDirectoryStopsTheStartWithOneLineNamingIt() throws Exception {
    Path dir = tmp.resolve("data");
    EmbeddedRedis first = start(dir);
    first.close();
    Path otherConfig = tmp.resolve("other.conf");
    Files.writeString(otherConfig, "requirepass someone-elses\n");
    RedisServerProcess foreign = RedisServerProcess.launch(new RedisServerProcess.Launch(
        RedisServerProcess.findBinary(), -1, dir.toAbsolutePath(), "everysec", "normal", otherConfig,
        "someone-elses", dir.resolve(EmbeddedRedis.PID_FILE)));
    started.add(foreign);

    assertThatThrownBy(() -> start(dir))
        .isInstanceOf(IOException.class)
        .hasMessage("the data directory " + dir.toAbsolutePath() + " is in use by another redis-server (pid "
            + foreign.pid() + "); stop it or set redis.embedded.dataDir to another directory");
    assertThat(foreign.isAlive()).isTrue();
    assertThat(redisServersOn(dir)).containsExactly(foreign.pid());
  }

  @Test
  void aSecondRuntimeOnTheSameDataDirectoryIsRefusedAndTheFirstKeepsItsServer() throws Exception {
    Path dir = tmp.resolve("data");
    EmbeddedRedis first = start(dir);

    assertThatThrownBy(() -> start(dir))
        .isInstanceOf(IOException.class)
        .hasMessage("the data directory " + dir.toAbsolutePath() + " is in use by another Ratchet (pid "
            + ProcessHandle.current().pid() + "); stop it or set redis.embedded.dataDir to another directory");
    try (RedisProbe probe = probe(first)) {
      assertThat(probe.call("AUTH", password(dir)).error()).isFalse();
      assertThat(probe.call("PING").text()).isEqualTo("PONG");
    }
  }

  @Test
  void twoDataDirectoriesRunSideBySide() throws Exception {
    EmbeddedRedis a = start(tmp.resolve("a"));
    EmbeddedRedis b = start(tmp.resolve("b"));

    assertThat(password(tmp.resolve("a"))).isNotEqualTo(password(tmp.resolve("b")));
    for (EmbeddedRedis redis : List.of(a, b)) {
      try (RedisProbe probe = probe(redis)) {
        assertThat(probe.call("AUTH", password(redis.server().dataDir())).error()).isFalse();
        assertThat(probe.pid()).isEqualTo(redis.server().pid());
      }
    }
  }

  @Test
  void theRedis62ShippedInTheJarRunsTheSameWay() throws Exception {
    Path dir = tmp.resolve("data");
    EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.bundledBinary(),
        new EmbeddedRedis.Options(dir, 0, "everysec", "normal"));
    started.add(redis);

    assertThat(tcpListeners(redis.server().pid())).isEmpty();
    try (RedisProbe probe = probe(redis)) {
      assertThat(probe.call("PING").text()).startsWith("NOAUTH");
      assertThat(probe.call("AUTH", password(dir)).error()).isFalse();
      assertThat(probe.call("INFO", "server").text()).contains("redis_version:6.2");
    }
    assertThat(EmbeddedRedis.readPid(dir.resolve(EmbeddedRedis.PID_FILE))).isEqualTo(redis.server().pid());
  }

  @Test
  void aDataDirectoryTooLongForASocketWithoutAPortIsAClearError() {
    Path deep = tmp.resolve("d".repeat(60)).resolve("e".repeat(60));

    assertThatThrownBy(() -> start(deep))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is too long a path for the embedded Redis's Unix socket")
        .hasMessageContaining("redis.embedded.port");
  }

  private static RedisProbe probe(EmbeddedRedis redis) throws IOException {
    return RedisProbe.connect(redis.server().unixSocket().orElseThrow(), 0, 2_000);
  }

  private static String password(Path dir) throws IOException {
    return Files.readString(dir.resolve(EmbeddedRedis.PASSWORD_FILE), StandardCharsets.UTF_8).trim();
  }

  private static String permissions(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  /** The running redis-servers whose working directory is {@code dir} (Redis works in its data directory). */
  static List<Long> redisServersOn(Path dir) throws IOException {
    Path real = dir.toRealPath();
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        long pid = Long.parseLong(proc.getFileName().toString());
        try {
          if (LocalProcesses.running(pid) && LocalProcesses.commandLine(pid).orElse("").contains("redis-server")
              && Files.readSymbolicLink(proc.resolve("cwd")).equals(real)) {
            pids.add(pid);
          }
        } catch (IOException e) {
          // gone, or another account's
        }
      }
    }
    return pids;
  }

  /** The TCP addresses {@code pid} listens on, as {@code host:port}, from /proc/net/tcp and tcp6. */
  static Set<String> tcpListeners(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    Set<String> listening = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path file = Path.of(table);
      if (!Files.exists(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        // st 0A is LISTEN; f[9] is the socket's inode
        if (f.length > 9 && "0A".equals(f[3]) && inodes.contains(f[9])) {
          listening.add(address(f[1]));
        }
      }
    }
    return listening;
  }

  private static String address(String hex) {
    String[] parts = hex.split(":");
    int port = Integer.parseInt(parts[1], 16);
    if (parts[0].length() == 8) {
      long ip = Long.parseLong(parts[0], 16);
      // little-endian on the machines this runs on
      return (ip & 0xff) + "." + (ip >> 8 & 0xff) + "." + (ip >> 16 & 0xff) + "." + (ip >> 24 & 0xff) + ":" + port;
    }
    return "[" + parts[0] + "]:" + port;
  }
}

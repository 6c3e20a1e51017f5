package dev.ratchet.embedded;

import dev.ratchet.embedded.impl.IdleChildren;
import dev.ratchet.embedded.impl.RedisProbe;
import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.host.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} child process: the one on PATH if there is one, else the Redis 6.2
 * binary shipped in the {@code com.github.codemonstur:embedded-redis} artifact when that is on the
 * classpath (ratchet.jar carries it; the library modules do not). Used by {@code ratchet run} when
 * no Redis is configured, and by tests that need a server of their own.
 */
public final class RedisServerProcess implements AutoCloseable {

  /**
   * The {@code hash-max-listpack-value} the journal's Redis is best run with: a call's hash (its
   * record, a few hundred bytes) then stays in Redis's compact encoding.
   */
  public static final int JOURNAL_HASH_VALUE_BYTES = 1024;

  /** Bytes of a socket path that every platform's socket address holds (Linux: 107, macOS: 103). */
  static final int MAX_SOCKET_PATH = 100;

  /**
   * The system property that sets the CPU priority of the server's AOF rewrites when none is
   * given: {@code idle} (the default) or {@code normal}; see {@link #start(String, int, Path, String, String)}.
   */
  public static final String REWRITE_PRIORITY_PROPERTY = "ratchet.redis.rewritePriority";

  private final Process process;
  private final int port;
  private final Path dataDir;
  private final String binary;
  private final Path socket;
  private final String password;
  private final List<String> command;
  private volatile IdleChildren idleChildren;
  private volatile boolean deleteDataOnClose;

  private RedisServerProcess(Process process, int port, Path dataDir, String binary, Path socket,
      String password, List<String> command) {
    this.process = process;
    this.password = password;
    this.command = List.copyOf(command);
    this.port = port;
    this.dataDir = dataDir;
    this.binary = binary;
    this.socket = socket;
  }

  /**
   * The server's Unix domain socket in its data directory, or null where there is none: on Windows,
   * and where the path would not fit in a socket address (about 100 bytes on Linux and macOS).
   */
  static Path socketFor(Path dataDir) {
    Path socket = dataDir.toAbsolutePath().normalize().resolve("redis.sock");
    boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    return windows || socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH
        ? null : socket;
  }

  /**
   * Starts a server (see {@link #start(int, Path, String)}) in a new temporary directory named
   * after {@code dirPrefix}, which {@link #close()} removes with the server's data: a bench run or a
   * test suite leaves nothing behind.
   */
  public static RedisServerProcess startTemporary(String dirPrefix, String appendfsync) throws IOException {
    Path dir = Files.createTempDirectory(dirPrefix);
    try {
      RedisServerProcess server = start(0, dir, appendfsync);
      server.deleteDataOnClose = true;
      return server;
    } catch (IOException | RuntimeException e) {
      deleteDataDir(dir);
      throw e;
    }
  }

  /** Removes a server's data directory and everything in it; nothing happens when it is null or gone. */
  public static void deleteDataDir(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("could not remove the Redis data under " + dir, e);
    }
  }

  /**
   * Starts a server on {@code port} (0 picks a free one) keeping its data in {@code dataDir}.
   *
   * @param appendfsync {@code always}, {@code everysec} or {@code no}; null turns AOF off
   */
  public static RedisServerProcess start(int port, Path dataDir, String appendfsync) throws IOException {
    return start(findBinary(), port, dataDir, appendfsync);
  }

  /**
   * Starts the given redis-server binary (see {@link #bundledBinary()} for the Redis 6.2 one), its
   * rewrites at the priority of {@value #REWRITE_PRIORITY_PROPERTY}.
   */
  public static RedisServerProcess start(String binary, int port, Path dataDir, String appendfsync)
      throws IOException {
    return start(binary, port, dataDir, appendfsync, defaultRewritePriority());
  }

  /** The rewrite priority of a server started without one: {@value #REWRITE_PRIORITY_PROPERTY}, else {@code idle}. */
  public static String defaultRewritePriority() {
    return System.getProperty(REWRITE_PRIORITY_PROPERTY, "idle");
  }

  /**
   * Starts the given redis-server binary.
   *
   * @param rewritePriority {@code idle}: the processes the server forks, its AOF rewrites, run only
   *     on CPU that Redis and the runtime leave free (Linux, with {@code chrt}; elsewhere as
   *     {@code normal}); {@code normal}: they compete for the CPU like any other process
   */
  public static RedisServerProcess start(String binary, int port, Path dataDir, String appendfsync,
      String rewritePriority) throws IOException {
    return launch(new Launch(binary, port, dataDir, appendfsync, rewritePriority, null, null, null));
  }

  /**
   * What to start: {@code port} -1 for no TCP listener at all (the Unix socket alone), 0 for a free
   * one; {@code config}, when not null, a file holding settings kept off the command line (which
   * every local account can read in {@code /proc}), such as {@code requirepass}; {@code password}
   * the one it sets, for the start-up check; {@code pidFile} where the server writes its pid.
   */
  record Launch(String binary, int port, Path dataDir, String appendfsync, String rewritePriority, Path config,
      String password, Path pidFile) {
  }

  static RedisServerProcess launch(Launch launch) throws IOException {
    boolean idle = switch (launch.rewritePriority()) {
      case "idle" -> true;
      case "normal" -> false;
      default -> throw new IllegalArgumentException("the rewrite priority of the embedded Redis is 'idle' or"
          + " 'normal', not '" + launch.rewritePriority() + "'");
    };
    Path dataDir = launch.dataDir();
    Files.createDirectories(dataDir);
    int p = launch.port() == 0 ? FreePorts.next() : Math.max(launch.port(), 0);
    Path socket = socketFor(dataDir);
    if (p == 0 && socket == null) {
      throw new IOException("redis-server needs a port where its data directory " + dataDir
          + " has no room for a Unix socket");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(launch.binary());
    if (launch.config() != null) {
      // the file comes first or redis-server does not read it
      cmd.add(launch.config().toAbsolutePath().toString());
    }
    cmd.addAll(List.of("--port", String.valueOf(p)));
    if (p != 0) {
      cmd.addAll(List.of("--bind", "127.0.0.1"));
    }
    cmd.addAll(List.of(
        "--dir", dataDir.toAbsolutePath().toString(), "--save", "", "--daemonize", "no",
        "--logfile", dataDir.resolve("redis.log").toAbsolutePath().toString(),
        // a call's record is a few hundred bytes: above Redis's default of 64 each call's hash takes
        // the dict encoding, a third more memory per turn and three times as long to rewrite the AOF
        // (the 6.2 name, which Redis 7 keeps as an alias of hash-max-listpack-value)
        "--hash-max-ziplist-value", String.valueOf(JOURNAL_HASH_VALUE_BYTES)));
    if (socket != null) {
      cmd.addAll(List.of("--unixsocket", socket.toString(), "--unixsocketperm", "700"));
    }
    if (launch.pidFile() != null) {
      cmd.addAll(List.of("--pidfile", launch.pidFile().toAbsolutePath().toString()));
    }
    if (launch.appendfsync() == null) {
      cmd.addAll(List.of("--appendonly", "no"));
    } else {
      cmd.addAll(List.of("--appendonly", "yes", "--appendfsync", launch.appendfsync()));
    }
    // redis-server needs none of this JVM's variables, which hold credentials
    Process process = ChildEnvironment.minimal(new ProcessBuilder(cmd)).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    RedisServerProcess server = new RedisServerProcess(process, p, dataDir, launch.binary(), socket,
        launch.password(), cmd);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    server.awaitReady();
    if (idle) {
      server.idleChildren = IdleChildren.watch(process.pid());
    }
    return server;
  }

  /** The server's TCP port on 127.0.0.1, or 0 when it listens on its Unix socket alone. */
  public int port() {
    return port;
  }

  /** The server's TCP address as a URL; the server must listen on a port. */
  public String url() {
    if (port == 0) {
      throw new IllegalStateException("this redis-server listens on its Unix socket alone");
    }
    return "redis://127.0.0.1:" + port;
  }

  /**
   * The server's Unix domain socket as a URL ({@code unix:///…/redis.sock}) for a client on the same
   * host: no TCP stack between the runtime and Redis, which cost 8–10 % less CPU per call at a
   * moderate load on the development machine. Empty where the server has no socket.
   */
  public Optional<String> unixSocketUrl() {
    return unixSocket().map(path -> "unix://" + path);
  }

  /** The server's Unix domain socket ({@code redis.sock} in its data directory); empty where it has none. */
  public Optional<Path> unixSocket() {
    return Optional.ofNullable(socket);
  }

  /** The command line the server was started with. */
  List<String> command() {
    return command;
  }

  public Path dataDir() {
    return dataDir;
  }

  public String binary() {
    return binary;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the server abruptly, as a crash would. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the server's forked children are being given idle CPU priority. */
  public boolean rewritesAtIdlePriority() {
    return idleChildren != null;
  }

  @Override
  public void close() {
    IdleChildren watcher = idleChildren;
    if (watcher != null) {
      watcher.close();
    }
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (deleteDataOnClose) {
      deleteDataDir(dataDir);
    }
  }

  /**
   * Waits until the server answers as this process ({@code process_id} in its {@code INFO}): a
   * server that another process left on the same port or socket never passes for this one.
   */
  private void awaitReady() throws IOException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server (" + binary + ") exited with code " + process.exitValue()
            + lastLogLine().map(l -> ": " + l).orElse("") + " (see " + dataDir.resolve("redis.log") + ")");
      }
      try (RedisProbe probe = RedisProbe.connect(socket, port, 1_000)) {
        if (password == null || !probe.call("AUTH", password).error()) {
          if (probe.pid() == process.pid()) {
            return;
          }
        }
      } catch (IOException e) {
        // not listening yet
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for redis-server");
      }
    }
    close();
    throw new IOException("redis-server did not answer on " + (socket != null ? socket : "port " + port)
        + " within 10 s");
  }

  /** The reason a server gave for stopping: the last line of its log, without the pid and time Redis puts first. */
  private Optional<String> lastLogLine() {
    try {
      List<String> lines = Files.readAllLines(dataDir.resolve("redis.log"), StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        String line = lines.get(i).trim();
        if (!line.isEmpty()) {
          int mark = line.indexOf(" # ");
          return Optional.of(mark >= 0 ? line.substring(mark + 3) : line);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // no log to quote
    }
    return Optional.empty();
  }

  /** The redis-server on PATH, else the binary from the embedded-redis artifact if present, unpacked once. */
  public static String findBinary() throws IOException {
    String onPath = ChildEnvironment.onPath("redis-server");
    return onPath != null ? onPath : bundledBinary();
  }

  /** The Redis 6.2 binary shipped in the embedded-redis artifact, unpacked to the temp folder once. */
  public static String bundledBinary() throws IOException {
    String os = System.getProperty("os.name").toLowerCase();
    String arch = System.getProperty("os.arch").toLowerCase();
    String resource;
    if (os.contains("linux")) {
      resource = arch.contains("aarch64") || arch.contains("arm") ? "redis-server-6.2.7-linux-arm64"
          : "redis-server-6.2.6-v5-linux-amd64";
    } else if (os.contains("mac")) {
      resource = arch.contains("aarch64") ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
    } else {
      throw new IOException("no redis-server on PATH and no bundled binary for " + os + "/" + arch);
    }
    Path target = Path.of(System.getProperty("java.io.tmpdir"), "ratchet-" + resource);
    if (!Files.isExecutable(target)) {
      try (InputStream in = RedisServerProcess.class.getResourceAsStream("/" + resource)) {
        if (in == null) {
          throw new IOException("no redis-server on PATH and the embedded-redis artifact is not on the classpath:"
              + " install Redis, or add com.github.codemonstur:embedded-redis to the classpath");
        }
        Path tmp = Files.createTempFile(target.getParent(), "ratchet-redis", ".tmp");
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        tmp.toFile().setExecutable(true, true);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    }
    return target.toString();
  }
}

package dev.ratchet.embedded;

import dev.ratchet.embedded.impl.LocalProcesses;
import dev.ratchet.embedded.impl.RedisProbe;
import dev.ratchet.host.PrivateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The redis-server that {@code ratchet run} keeps the journal in when no Redis is configured, reached
 * only by the account that runs Ratchet: it listens on a Unix socket in its data directory
 * ({@code rwx------}) and on no TCP port unless one is configured, and asks for a password kept in
 * {@code redis.password} there ({@code rw-------}), never on a command line. One runtime holds a
 * data directory at a time ({@code ratchet.lock}); a server that a killed runtime left running on
 * it is shut down cleanly before a fresh one starts, and anyone else's server there stops the start
 * with an error naming the directory. {@link #locate} finds the server the same way for a command
 * such as {@code inspect}.
 */
public final class EmbeddedRedis implements AutoCloseable {

  /** The password clients give, 64 hex digits, {@code rw-------} in the data directory. */
  public static final String PASSWORD_FILE = "redis.password";
  /** Where the server writes its pid; Redis removes it when it stops cleanly. */
  public static final String PID_FILE = "redis.pid";
  /** The settings kept off the server's command line ({@code requirepass}), {@code rw-------}. */
  static final String CONFIG_FILE = "redis.conf";
  /** Locked by the runtime that uses the data directory, for as long as it runs; holds its pid. */
  static final String LOCK_FILE = "ratchet.lock";

  private static final long SHUTDOWN_MILLIS = 30_000;

  /**
   * What to start.
   *
   * @param port a TCP port on 127.0.0.1 to listen on besides the socket (with the same password), 0 for none
   * @param appendfsync {@code always}, {@code everysec} or {@code no}
   * @param rewritePriority {@code idle} or {@code normal}, see {@link RedisServerProcess#start(String, int, Path, String, String)}
   */
  public record Options(Path dataDir, int port, String appendfsync, String rewritePriority) {
  }

  private final RedisServerProcess server;
  private final String password;
  private final FileChannel lock;
  private final List<String> notices;

  private EmbeddedRedis(RedisServerProcess server, String password, FileChannel lock, List<String> notices) {
    this.server = server;
    this.password = password;
    this.lock = lock;
    this.notices = List.copyOf(notices);
  }

  /** Starts the server with the binary {@code binary} (see {@link RedisServerProcess#findBinary()}). */
  public static EmbeddedRedis start(String binary, Options options) throws IOException {
    Path dir = options.dataDir().toAbsolutePath().normalize();
    Path socket = RedisServerProcess.socketFor(dir);
    if (socket == null && options.port() == 0) {
      throw new IOException(noSocket(dir));
    }
    List<String> notices = new ArrayList<>();
    secureDirectory(dir).ifPresent(notices::add);
    FileChannel lock = lock(dir);
    try {
      String password = PrivateFiles.secret(dir.resolve(PASSWORD_FILE));
      clearLeftover(dir, socket, options.port(), password).ifPresent(notices::add);
      Path config = dir.resolve(CONFIG_FILE);
      PrivateFiles.write(config, "requirepass " + password + "\n");
      RedisServerProcess server = RedisServerProcess.launch(new RedisServerProcess.Launch(binary,
          options.port() == 0 ? -1 : options.port(), dir, options.appendfsync(), options.rewritePriority(), config,
          password, dir.resolve(PID_FILE)));
      return new EmbeddedRedis(server, password, lock, notices);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * The journal URL of the server a running {@code ratchet run} keeps in {@code dataDir}, password
   * included, for another command of the same account; {@code port} as configured for it.
   */
  public static String locate(Path dataDir, int port) throws IOException {
    Path dir = dataDir.toAbsolutePath().normalize();
    long pid = readPid(dir.resolve(PID_FILE));
    if (pid <= 0 || !LocalProcesses.runsRedis(pid) || !Files.exists(dir.resolve(PASSWORD_FILE))) {
      throw new IOException("no embedded Redis is running on " + dataDir + "; start `ratchet run` or pass --redis-url");
    }
    String password = Files.readString(dir.resolve(PASSWORD_FILE), StandardCharsets.UTF_8).trim();
    Path socket = RedisServerProcess.socketFor(dir);
    if (socket == null && port == 0) {
      throw new IOException(noSocket(dir));
    }
    return url(socket, port, password);
  }

  /** Whether {@code dataDir} holds what a server kept there (its append-only files, or a snapshot). */
  public static boolean holdsJournal(Path dataDir) {
    return Files.isDirectory(dataDir.resolve("appendonlydir")) || Files.isRegularFile(dataDir.resolve("appendonly.aof"))
        || Files.isRegularFile(dataDir.resolve("dump.rdb"));
  }

  /** Whether a server on {@code dataDir} can listen on a Unix socket there (the path is short enough). */
  public static boolean servesSocket(Path dataDir) {
    return RedisServerProcess.socketFor(dataDir.toAbsolutePath().normalize()) != null;
  }

  /**
   * Creates {@code dir} as {@code rwx------}, or takes an existing one's access away from other
   * accounts: the warning to show when it had to, else empty.
   */
  private static Optional<String> secureDirectory(Path dir) throws IOException {
    return PrivateFiles.ownerOnlyDirectory(dir, "the data directory").map(had -> "the data directory " + dir
        + " was " + had + ": made it rwx------, so that only this account reads the journal");
  }

  private static String url(Path socket, int port, String password) {
    return socket != null ? "unix://" + socket + "?password=" + password
        : "redis://:" + password + "@127.0.0.1:" + port;
  }

  private static String noSocket(Path dir) {
    return "the data directory " + dir + " is too long a path for the embedded Redis's Unix socket (at most "
        + (RedisServerProcess.MAX_SOCKET_PATH - "/redis.sock".length()) + " bytes): set redis.embedded.dataDir to a"
        + " shorter one, or redis.embedded.port to reach it over TCP";
  }

  /**
   * Takes the data directory's lock for this process, or fails naming the runtime that holds it.
   * The lock goes with the process, however it ends; the server it started may not, which
   * {@link #clearLeftover} sees to.
   */
  private static FileChannel lock(Path dir) throws IOException {
    Path file = dir.resolve(LOCK_FILE);
    FileAttribute<?>[] attrs = PrivateFiles.posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PrivateFiles.OWNER_FILE)}
        : new FileAttribute<?>[0];
    FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE), attrs);
    FileLock held;
    try {
      held = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      held = null;
    }
    if (held == null) {
      channel.close();
      String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
      throw new IOException("the data directory " + dir + " is in use by another Ratchet"
          + (holder.matches("\\d+") ? " (pid " + holder + ")" : "")
          + "; stop it or set redis.embedded.dataDir to another directory");
    }
    channel.truncate(0);
    channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
    return channel;
  }

  /**
   * Sees that no server runs on the data directory before a fresh one starts: one that answers to
   * this directory's password (left by a runtime that was killed) is shut down cleanly, its AOF
   * flushed; anyone else's is an error; a pid file that names no redis-server is removed. What to
   * tell the user, if anything.
   */
  private static Optional<String> clearLeftover(Path dir, Path socket, int port, String password) throws IOException {
    Path pidFile = dir.resolve(PID_FILE);
    long recorded = readPid(pidFile);
    boolean recordedRuns = recorded > 0 && LocalProcesses.runsRedis(recorded);
    if (socket == null && !recordedRuns) {
      Files.deleteIfExists(pidFile);
      return Optional.empty();
    }
    RedisProbe probe;
    try {
      probe = RedisProbe.connect(socket, port, 5_000);
    } catch (IOException e) {
      // nothing listens: a stale socket file is replaced by the new server
      if (recordedRuns) {
        throw inUse(dir, recorded);
      }
      Files.deleteIfExists(pidFile);
      return Optional.empty();
    }
    boolean ours;
    long pid;
    Optional<String> refused = Optional.empty();
    try (probe) {
      ours = !probe.call("AUTH", password).error();
      // a server without a password tells its pid to anyone
      pid = probe.pid();
      if (ours) {
        refused = probe.callExpectingClose("SHUTDOWN");
      }
    } catch (IOException e) {
      throw inUse(dir, recordedRuns ? recorded : -1);
    }
    if (!ours) {
      throw inUse(dir, recordedRuns ? recorded : pid);
    }
    if (refused.isPresent()) {
      throw new IOException("the redis-server (pid " + pid + ") that an earlier Ratchet left running on " + dir
          + " refused to shut down: " + refused.get());
    }
    if (pid > 0 && !LocalProcesses.awaitExit(pid, SHUTDOWN_MILLIS)) {
      throw new IOException("the redis-server (pid " + pid + ") that an earlier Ratchet left running on " + dir
          + " did not shut down within " + SHUTDOWN_MILLIS / 1000 + " s");
    }
    return Optional.of("stopped the redis-server (pid " + pid + ") that an earlier Ratchet left running on " + dir
        + "; the journal is kept");
  }

  private static IOException inUse(Path dir, long pid) {
    return new IOException("the data directory " + dir + " is in use by another redis-server ("
        + (pid > 0 ? "pid " + pid : "pid unknown") + "); stop it or set redis.embedded.dataDir to another directory");
  }

  /** The pid in a pid file, or -1 when there is none or it holds no number. */
  static long readPid(Path pidFile) throws IOException {
    try {
      String s = Files.readString(pidFile, StandardCharsets.US_ASCII).trim();
      return s.matches("\\d{1,18}") ? Long.parseLong(s) : -1;
    } catch (NoSuchFileException e) {
      return -1;
    }
  }

  /** The URL the journal connects with: the socket (or the port) and the password. Never print it. */
  public String journalUrl() {
    return url(server.unixSocket().orElse(null), server.port(), password);
  }

  /** The server process. */
  public RedisServerProcess server() {
    return server;
  }

  /** What the start did that the user should know: a directory made private, a left-over server stopped. */
  public List<String> notices() {
    return notices;
  }

  /** Stops the server cleanly (its AOF flushed) and lets the data directory go. */
  @Override
  public void close() {
    server.close();
    try {
      lock.close();
    } catch (IOException e) {
      // the lock goes with the process anyway
    }
  }
}

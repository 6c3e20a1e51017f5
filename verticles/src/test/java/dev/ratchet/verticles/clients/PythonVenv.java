package dev.ratchet.verticles.clients;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Python client's test environment: a virtual environment in {@code clients/python/.venv}
 * (git-ignored) with the pinned packages of {@code requirements-test.txt}, made once per
 * requirements and shared by every test JVM: one installs while the others wait on a lock file, into
 * a staging folder beside it that is renamed into place, so an install that dies leaves no half one.
 */
final class PythonVenv {

  private static final String MARKER = "ratchet-requirements.sha256";

  private PythonVenv() {
  }

  static Path project() {
    return ClientSuite.clients().resolve("python");
  }

  /** The environment's python, made or remade first when the requirements changed. */
  static synchronized Path python() throws IOException, InterruptedException {
    Path venv = project().resolve(".venv");
    String wanted = digest(project().resolve("requirements-test.txt"));
    if (!wanted.equals(installed(venv))) {
      // test JVMs of other forks wait for the one installing instead of installing it twice
      Path lock = Path.of("target", "python-venv.lock").toAbsolutePath();
      Files.createDirectories(lock.getParent());
      try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
           FileLock held = channel.lock()) {
        if (!wanted.equals(installed(venv))) {
          Path staging = project().resolve(".venv-staging-" + UUID.randomUUID());
          try {
            build(staging, wanted);
            replace(venv, staging);
          } finally {
            delete(staging);
          }
        }
      }
    }
    return venv.resolve("bin/python");
  }

  private static void build(Path staging, String digest) throws IOException, InterruptedException {
    long start = System.nanoTime();
    if (run(List.of("python3", "-m", "venv", staging.toString()), 5) != 0) {
      // a Python without ensurepip (Debian's python3 without python3-venv): the system pip installs into it
      delete(staging);
      check(run(List.of("python3", "-m", "venv", "--without-pip", staging.toString()), 5), "python3 -m venv");
    }
    Path python = staging.resolve("bin/python");
    List<String> pip = Files.exists(staging.resolve("bin/pip"))
        ? List.of(python.toString(), "-m", "pip")
        : List.of("python3", "-m", "pip", "--python", python.toString());
    List<String> install = new ArrayList<>(pip);
    install.addAll(List.of("install", "--disable-pip-version-check", "-q", "-r",
        project().resolve("requirements-test.txt").toString()));
    check(run(install, 15), String.join(" ", install));
    Files.writeString(staging.resolve(MARKER), digest);
    System.out.printf("Python test environment installed in %d s%n", (System.nanoTime() - start) / 1_000_000_000L);
  }

  private static void replace(Path venv, Path staging) throws IOException {
    Path stale = project().resolve(".venv-stale-" + UUID.randomUUID());
    if (Files.exists(venv)) {
      Files.move(venv, stale, StandardCopyOption.ATOMIC_MOVE);
    }
    try {
      Files.move(staging, venv, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(staging, venv);
    } catch (FileSystemException e) {
      // another test JVM renamed its complete environment into place first
      if (installed(venv) == null) {
        throw e;
      }
    } finally {
      delete(stale);
    }
  }

  private static String installed(Path venv) throws IOException {
    Path marker = venv.resolve(MARKER);
    return Files.isRegularFile(marker) ? Files.readString(marker, StandardCharsets.UTF_8).strip() : null;
  }

  private static String digest(Path file) throws IOException {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void check(int exit, String command) {
    if (exit != 0) {
      throw new IllegalStateException(command + " failed with exit code " + exit + " (its output is in the test log)");
    }
  }

  private static int run(List<String> command, long minutes) throws IOException, InterruptedException {
    Path log = Files.createTempFile("ratchet-venv", ".log");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean ended = process.waitFor(minutes, TimeUnit.MINUTES);
      if (!ended) {
        process.destroyForcibly();
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (!ended) {
        throw new IllegalStateException(String.join(" ", command) + " did not finish in " + minutes + " min:\n" + output);
      }
      if (process.exitValue() != 0) {
        System.out.println(String.join(" ", command) + ":\n" + output);
      }
      return process.exitValue();
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

package dev.ratchet.verticles.bench;

import dev.ratchet.runtime.redis.RedisServerProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A Redis server of the bench's own, in a temporary directory that goes away with it: a full run
 * leaves gigabytes of AOF behind otherwise.
 */
final class BenchRedis implements AutoCloseable {

  private final Path dir;
  private final RedisServerProcess process;

  private BenchRedis(Path dir, RedisServerProcess process) {
    this.dir = dir;
    this.process = process;
  }

  static BenchRedis start(String appendfsync) throws IOException {
    Path dir = Files.createTempDirectory("ratchet-bench");
    try {
      return new BenchRedis(dir, RedisServerProcess.start(0, dir, appendfsync));
    } catch (IOException | RuntimeException e) {
      delete(dir);
      throw e;
    }
  }

  String url() {
    return process.url();
  }

  @Override
  public void close() {
    process.close();
    delete(dir);
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("could not remove the bench's Redis data under " + dir, e);
    }
  }
}

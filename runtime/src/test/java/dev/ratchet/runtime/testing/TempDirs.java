package dev.ratchet.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the data directories of Redis servers that tests start, so that test runs leave nothing in /tmp. */
public final class TempDirs {

  private TempDirs() {
  }

  /** Deletes {@code dir} and everything under it; nothing happens when it is null or already gone. */
  public static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("could not remove the test's Redis data under " + dir, e);
    }
  }
}

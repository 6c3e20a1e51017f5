package dev.ratchet.runtime.retention;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What retention archives holds every session's calls whole: only the account running Ratchet may
 * read it. Its folder is rwx------ and every file in it rw-------, whether written now, rotated,
 * rewritten by an erasure, or left wider by an earlier version (narrowed when the archive starts).
 */
class ArchivePermissionsTest {

  private final Vertx vertx = Vertx.vertx();

  @TempDir
  Path tmp;

  @AfterEach
  void close() {
    await(vertx.close());
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }

  private static List<JsonObject> records(String session, int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> new JsonObject().put("kind", "turn")
        .put("session", session).put("turn", "t" + i).put("results", "x".repeat(200))).toList();
  }

  @Test
  void archiveFilesAreCreatedReadableByTheOwnerOnlyInAnOwnerOnlyFolder() throws IOException {
    assumeTrue(Files.getFileStore(tmp).supportsFileAttributeView("posix"));
    Path dir = tmp.resolve("data").resolve("archive");
    ArchiveSink archive = ArchiveSink.jsonLines(vertx, dir, 1024);
    await(archive.append("s1", records("s1", 8)));
    // the first file is over its limit: the next append rotates and compresses it
    await(archive.append("s2", records("s2", 2)));
    await(archive.erase("s1"));

    assertThat(mode(dir)).isEqualTo("rwx------");
    assertThat(files(dir)).hasSizeGreaterThanOrEqualTo(2)
        .anySatisfy(f -> assertThat(f.toString()).endsWith(".jsonl.gz"))
        .allSatisfy(f -> assertThat(mode(f)).as(f.toString()).isEqualTo("rw-------"));
  }

  @Test
  void anArchiveLeftReadableByOthersIsNarrowedWhenTheArchiveStarts() throws IOException {
    assumeTrue(Files.getFileStore(tmp).supportsFileAttributeView("posix"));
    Path dir = tmp.resolve("archive");
    Files.createDirectories(dir);
    Path plain = Files.writeString(dir.resolve("archive-2026-01-01-1.jsonl"), records("s1", 1).get(0).encode() + "\n");
    Path other = Files.writeString(dir.resolve("notes.txt"), "kept as it is, only narrowed");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(plain, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rw-rw-rw-"));

    ArchiveSink archive = ArchiveSink.jsonLines(vertx, dir, 1024 * 1024);
    assertThat(await(archive.read("s1"))).hasSize(1);

    assertThat(mode(dir)).isEqualTo("rwx------");
    assertThat(mode(plain)).isEqualTo("rw-------");
    assertThat(mode(other)).isEqualTo("rw-------");
    assertThat(Files.readString(other)).isEqualTo("kept as it is, only narrowed");
  }
}

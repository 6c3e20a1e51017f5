package dev.ratchet.runtime.retention.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.host.PrivateFiles;
import dev.ratchet.runtime.retention.ArchiveSink;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The default {@link ArchiveSink}: JSON Lines files {@code archive-<day>-<n>.jsonl} under one
 * directory. Appends go to the current file and are forced to disk before they succeed; a file is
 * closed when its day ends or it reaches the size limit, then gzip-compressed
 * ({@code .jsonl.gz}). File work runs on worker threads, one operation at a time.
 * <p>The records hold every call whole, so only the account running Ratchet may read them: the
 * directory is {@code rwx------} and every file {@code rw-------}, created so; an archive left
 * wider (by an earlier version, or by hand) is narrowed when the archive starts, with a warning.
 */
public final class JsonLinesArchive implements ArchiveSink {

  private static final Logger LOG = LoggerFactory.getLogger(JsonLinesArchive.class);

  private final Vertx vertx;
  private final Path dir;
  private final long maxFileBytes;
  private Path current;
  private boolean secured;

  public JsonLinesArchive(Vertx vertx, Path dir, long maxFileBytes) {
    this.vertx = vertx;
    this.dir = dir;
    this.maxFileBytes = maxFileBytes;
    // at start, not at the first removal: an archive written wider waits for nobody to be narrowed
    blocking(() -> null).onFailure(err -> LOG.warn("{}", err.getMessage()));
  }

  /** Narrows the directory and every file in it to this account, once, before the first operation. */
  private void secure() throws IOException {
    if (secured || !Files.isDirectory(dir)) {
      return;
    }
    PrivateFiles.ownerOnlyDirectory(dir, "the archive directory").ifPresent(had -> LOG.warn(
        "the archive directory {} was {}: made it rwx------, so that only this account reads the archive", dir, had));
    int narrowed = 0;
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        if (PrivateFiles.ownerOnlyFile(f, "the archive file").isPresent()) {
          narrowed++;
        }
      }
    }
    if (narrowed > 0) {
      LOG.warn("{} file(s) of the archive {} could be read by other accounts: made them rw-------", narrowed, dir);
    }
    secured = true;
  }

  @Override
  public Future<Void> append(String sessionId, List<JsonObject> records) {
    return blocking(() -> {
      Path file = fileFor(LocalDate.now(ZoneOffset.UTC));
      StringBuilder sb = new StringBuilder();
      for (JsonObject r : records) {
        sb.append(r.encode()).append('\n');
      }
      try (FileChannel ch = PrivateFiles.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND))) {
        ch.write(java.nio.ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      return null;
    });
  }

  @Override
  public Future<List<JsonObject>> read(String sessionId) {
    return blocking(() -> {
      List<JsonObject> found = new ArrayList<>();
      for (Path f : files()) {
        for (String line : lines(f)) {
          JsonObject r = new JsonObject(line);
          if (sessionId.equals(r.getString("session"))) {
            found.add(r);
          }
        }
      }
      return found;
    });
  }

  @Override
  public Future<Integer> erase(String sessionId) {
    return blocking(() -> {
      int removed = 0;
      for (Path f : files()) {
        List<String> kept = new ArrayList<>();
        int here = 0;
        for (String line : lines(f)) {
          if (sessionId.equals(new JsonObject(line).getString("session"))) {
            here++;
          } else {
            kept.add(line);
          }
        }
        if (here > 0) {
          rewrite(f, kept);
          removed += here;
        }
      }
      return removed;
    });
  }

  /** The file to append to: the current one while it is today's and below the limit, else a new one. */
  private Path fileFor(LocalDate day) throws IOException {
    PrivateFiles.ownerOnlyDirectory(dir, "the archive directory");
    String prefix = "archive-" + day + "-";
    if (current != null && current.getFileName().toString().startsWith(prefix) && Files.exists(current)
        && Files.size(current) < maxFileBytes) {
      return current;
    }
    if (current != null && Files.exists(current)) {
      compress(current);
    }
    // files left open by an earlier process are compressed too
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList()) {
        if (!p.getFileName().toString().startsWith(prefix) || Files.size(p) >= maxFileBytes) {
          compress(p);
        } else {
          current = p;
          return current;
        }
      }
    }
    int n = 0;
    Path next;
    do {
      n++;
      next = dir.resolve(prefix + n + ".jsonl");
    } while (Files.exists(next) || Files.exists(dir.resolve(prefix + n + ".jsonl.gz")));
    current = next;
    return current;
  }

  private static void compress(Path plain) throws IOException {
    Path gz = plain.resolveSibling(plain.getFileName() + ".gz");
    try (InputStream in = Files.newInputStream(plain);
         OutputStream out = new GZIPOutputStream(PrivateFiles.newOutputStream(gz))) {
      in.transferTo(out);
    }
    Files.delete(plain);
  }

  private List<Path> files() throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("archive-")
          && (p.toString().endsWith(".jsonl") || p.toString().endsWith(".jsonl.gz"))).sorted().toList();
    }
  }

  private static List<String> lines(Path f) throws IOException {
    try (InputStream raw = Files.newInputStream(f);
         InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
         BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      List<String> out = new ArrayList<>();
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isBlank()) {
          out.add(line);
        }
      }
      return out;
    }
  }

  /** Replaces a file's lines through a temporary file, so a crash leaves the old or the new file, never half of one. */
  private static void rewrite(Path f, List<String> kept) throws IOException {
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    try (OutputStream raw = PrivateFiles.newOutputStream(tmp);
         OutputStream out = f.toString().endsWith(".gz") ? new GZIPOutputStream(raw) : raw) {
      for (String line : kept) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private <T> Future<T> blocking(Callable<T> work) {
    return vertx.<T>executeBlocking(() -> {
      synchronized (this) {
        try {
          secure();
          return work.call();
        } catch (IOException | UncheckedIOException e) {
          throw new RatchetException(ErrorCode.ARCHIVE_ERROR, "the archive at " + dir + " failed: " + e.getMessage(), e);
        }
      }
    }, true);
  }
}

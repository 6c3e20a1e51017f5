package dev.ratchet.runtime.retention;

import dev.ratchet.runtime.retention.impl.JsonLinesArchive;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.List;

/**
 * Where retention sends what it removes from the journal, before it removes it: a removal waits
 * for {@link #append} to succeed, and a failed append removes nothing. Records are JSON objects
 * with {@code kind} ({@code turn} or {@code session}) and {@code session} (see {@link ArchiveRecords}).
 * The default writes JSON Lines files ({@link #jsonLines}); an application may send them to its own
 * store instead.
 */
public interface ArchiveSink {

  /** Stores the records durably; succeeds only once they are stored. */
  Future<Void> append(String sessionId, List<JsonObject> records);

  /** Every record stored for the session, in the order appended. */
  Future<List<JsonObject>> read(String sessionId);

  /** Removes every record of the session (erasure); answers how many were removed. */
  Future<Integer> erase(String sessionId);

  default Future<Void> close() {
    return Future.succeededFuture();
  }

  /**
   * JSON Lines files under {@code dir}, one record a line, rotated by day and when a file reaches
   * {@code maxFileBytes}; a rotated file is gzip-compressed.
   */
  static ArchiveSink jsonLines(Vertx vertx, Path dir, long maxFileBytes) {
    return new JsonLinesArchive(vertx, dir, maxFileBytes);
  }
}

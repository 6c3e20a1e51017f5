package dev.ratchet.server.cli;

import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.SessionHistory;
import dev.ratchet.runtime.retention.ArchiveRecords;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Writes the sessions of an export into the journal as completed turns; a session the journal
 * already holds is refused and left as it is.
 */
@CommandLine.Command(name = "import", mixinStandardHelpOptions = true,
    description = "Write exported sessions into the journal; never overwrites an existing session.")
public final class ImportCommand implements Callable<Integer> {

  @CommandLine.Parameters(index = "0", description = "a file written by `export`")
  Path file;

  @CommandLine.Mixin
  JournalTarget target = new JournalTarget();

  @Override
  public Integer call() throws Exception {
    List<JsonObject> records = new ArrayList<>();
    Set<String> sessions = new LinkedHashSet<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(file)) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      JsonObject r;
      try {
        r = new JsonObject(line);
      } catch (RuntimeException e) {
        System.err.println(file + ":" + lineNo + ": not a JSON object; nothing imported");
        return 1;
      }
      if (r.getString("session") == null) {
        System.err.println(file + ":" + lineNo + ": a record without \"session\"; nothing imported");
        return 1;
      }
      records.add(r);
      sessions.add(r.getString("session"));
    }
    JsonObject cfg = target.configuration();
    Vertx vertx = Vertx.vertx();
    int failed = 0;
    try {
      RedisJournal journal = target.openJournal(vertx, cfg);
      for (String sessionId : sessions) {
        SessionHistory history = ArchiveRecords.history(sessionId, records);
        try {
          int turns = journal.retention().importSession(history).await();
          System.out.println("imported session " + VisibleText.escape(sessionId) + ": " + turns + " turns");
        } catch (RatchetException e) {
          failed++;
          System.err.println(VisibleText.escape("session " + sessionId + " not imported: " + e.code()
              + " " + e.getMessage()));
        }
      }
      return failed == 0 ? 0 : 1;
    } finally {
      vertx.close();
      target.close();
    }
  }
}

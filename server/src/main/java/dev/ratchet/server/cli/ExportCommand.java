package dev.ratchet.server.cli;

import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.SessionHistory;
import dev.ratchet.host.PrivateFiles;
import dev.ratchet.runtime.retention.ArchiveRecords;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** Writes a session's full history, archive and journal, as JSON Lines ({@link ArchiveRecords}). */
@CommandLine.Command(name = "export", mixinStandardHelpOptions = true,
    description = "Write a session's full history (archive + journal) as JSON Lines.")
public final class ExportCommand implements Callable<Integer> {

  @CommandLine.Parameters(index = "0", description = "the session id")
  String sessionId;

  @CommandLine.Option(names = "--out", description = "the file to write (default: standard output)")
  Path out;

  @CommandLine.Mixin
  JournalTarget target = new JournalTarget();

  @Override
  public Integer call() throws Exception {
    JsonObject cfg = target.configuration();
    Vertx vertx = Vertx.vertx();
    try {
      RedisJournal journal = target.openJournal(vertx, cfg);
      List<JsonObject> archived = target.archive(vertx, cfg).read(sessionId).await();
      SessionHistory history = journal.retention().history(sessionId).await();
      if (history == null && archived.isEmpty()) {
        System.err.println(VisibleText.escape("no session '" + sessionId + "' in the journal at "
            + journal.describe() + " or in the archive"));
        return 1;
      }
      List<JsonObject> records = ArchiveRecords.export(archived, history, System.currentTimeMillis());
      Path folder = out == null ? null : out.toAbsolutePath().getParent();
      if (folder != null && !Files.isDirectory(folder)) {
        // a folder it creates is rwx------; one that exists is the user's and stays as it is
        PrivateFiles.ownerOnlyDirectory(folder, "the export's directory");
      }
      // the export holds every call whole: rw------- as the archive, an existing file narrowed
      try (OutputStream file = out == null ? null : PrivateFiles.newOutputStream(out)) {
        PrintStream print = file == null ? System.out : new PrintStream(file, false, StandardCharsets.UTF_8);
        for (JsonObject r : records) {
          print.println(r.encode());
        }
        print.flush();
      }
      System.err.println("exported session " + VisibleText.escape(sessionId) + ": " + records.size() + " records");
      return 0;
    } finally {
      vertx.close();
      target.close();
    }
  }
}

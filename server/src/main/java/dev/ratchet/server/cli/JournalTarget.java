package dev.ratchet.server.cli;

import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.embedded.EmbeddedRedis;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The journal and archive a command works on, as {@code run} finds them: {@code --config},
 * {@code --redis-url} (else the embedded Redis in {@code --data-dir}), {@code --archive-dir}.
 * With no {@code ratchet run} on the data directory, the command starts a Redis of its own on it
 * and stops it in {@link #close}: it reads the journal without a runtime, so nothing in flight is
 * resumed or sent (starting {@code run} to read it would resume every turn in flight).
 */
final class JournalTarget implements AutoCloseable {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--redis-url", description = "overrides redis.url and RATCHET_REDIS_URL")
  String redisUrl;

  @CommandLine.Option(names = "--data-dir",
      description = "the embedded Redis's data directory (default: redis.embedded.dataDir, as `run` uses it)")
  Path dataDir;

  @CommandLine.Option(names = "--archive-dir", description = "the archive's directory (default: retention.archive.dir)")
  Path archiveDir;

  private EmbeddedRedis started;

  JsonObject configuration() throws IOException {
    return config.load(System.getenv());
  }

  RedisJournal openJournal(Vertx vertx, JsonObject cfg) throws IOException {
    String url = redisUrl != null ? redisUrl : cfg.getJsonObject("redis").getString("url");
    if (url == null && RedisTopology.fromJson(cfg.getJsonObject("redis")).isStandalone()) {
      EmbeddedRedis.Options embedded = RedisChoice.options(cfg.getJsonObject("redis")
          .getJsonObject("embedded", new JsonObject()));
      url = embeddedUrl(dataDir != null ? dataDir : embedded.dataDir(), embedded);
    }
    return RedisJournal.open(vertx, JournalOptions.fromConfig(url, cfg.getJsonObject("redis"), cfg.getJsonObject("journal"))).await();
  }

  private String embeddedUrl(Path dir, EmbeddedRedis.Options embedded) throws IOException {
    try {
      return EmbeddedRedis.locate(dir, embedded.port());
    } catch (IOException notRunning) {
      if (!EmbeddedRedis.holdsJournal(dir)) {
        throw notRunning;
      }
      // the socket alone when the path allows one: this Redis is the command's, nobody else's
      int port = EmbeddedRedis.servesSocket(dir) ? 0 : embedded.port();
      started = EmbeddedRedis.start(RedisServerProcess.findBinary(), new EmbeddedRedis.Options(dir, port,
          embedded.appendfsync(), embedded.rewritePriority()));
      System.err.println(VisibleText.escape("no `ratchet run` is running on " + dir + ": its journal is read"
          + " with a Redis of this command's own, stopped when it is done; nothing in flight is resumed"));
      return started.journalUrl();
    }
  }

  /** Stops the Redis this command started on the data directory, if it started one. */
  @Override
  public void close() {
    if (started != null) {
      started.close();
      started = null;
    }
  }

  ArchiveSink archive(Vertx vertx, JsonObject cfg) {
    RetentionOptions retention = RetentionOptions.fromJson(cfg.getJsonObject("retention"));
    return ArchiveSink.jsonLines(vertx, archiveDir != null ? archiveDir : Path.of(retention.archiveDir()),
        retention.archiveMaxFileBytes());
  }
}

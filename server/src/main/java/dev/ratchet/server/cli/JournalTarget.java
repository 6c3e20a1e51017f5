package dev.ratchet.server.cli;

import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.redis.EmbeddedRedis;
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
 */
final class JournalTarget {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--redis-url", description = "overrides redis.url and RATCHET_REDIS_URL")
  String redisUrl;

  @CommandLine.Option(names = "--data-dir",
      description = "the embedded Redis's data directory (default: redis.embedded.dataDir, as `run` uses it)")
  Path dataDir;

  @CommandLine.Option(names = "--archive-dir", description = "the archive's directory (default: retention.archive.dir)")
  Path archiveDir;

  JsonObject configuration() throws IOException {
    return config.load(System.getenv());
  }

  RedisJournal openJournal(Vertx vertx, JsonObject cfg) throws IOException {
    String url = redisUrl != null ? redisUrl : cfg.getJsonObject("redis").getString("url");
    if (url == null && RedisTopology.fromJson(cfg.getJsonObject("redis")).isStandalone()) {
      EmbeddedRedis.Options embedded = RedisChoice.options(cfg.getJsonObject("redis")
          .getJsonObject("embedded", new JsonObject()));
      url = EmbeddedRedis.locate(dataDir != null ? dataDir : embedded.dataDir(), embedded.port());
    }
    return RedisJournal.open(vertx, JournalOptions.fromConfig(url, cfg.getJsonObject("redis"), cfg.getJsonObject("journal"))).await();
  }

  ArchiveSink archive(Vertx vertx, JsonObject cfg) {
    RetentionOptions retention = RetentionOptions.fromJson(cfg.getJsonObject("retention"));
    return ArchiveSink.jsonLines(vertx, archiveDir != null ? archiveDir : Path.of(retention.archiveDir()),
        retention.archiveMaxFileBytes());
  }
}

package dev.ratchet.server.reload;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The files through which {@code ratchet reload} reaches a running server: its pid
 * ({@code ratchet.pid}), the request for a reload ({@code reload.request}) and the report of its
 * last reload ({@code reload.json}), all in the data directory (the parent of {@code redis.embedded.dataDir}, {@code ./data} by default). Only accounts that
 * may write the data directory can ask, so no token is needed.
 */
public record ControlFiles(Path dataDir) {

  public static ControlFiles of(JsonObject config) {
    JsonObject embedded = config.getJsonObject("redis", new JsonObject()).getJsonObject("embedded", new JsonObject());
    Path redisData = Path.of(embedded.getString("dataDir", "./data/redis")).toAbsolutePath().normalize();
    return new ControlFiles(redisData.getParent() == null ? redisData : redisData.getParent());
  }

  public Path pid() {
    return dataDir.resolve("ratchet.pid");
  }

  public Path report() {
    return dataDir.resolve("reload.json");
  }

  /** The file {@code ratchet reload} writes to ask for a reload; the server takes it away when it starts one. */
  public Path request() {
    return dataDir.resolve("reload.request");
  }

  /** Asks the server of this directory for a reload, atomically. */
  public void writeRequest() throws IOException {
    Files.createDirectories(dataDir);
    Path tmp = dataDir.resolve("reload.request.tmp");
    Files.writeString(tmp, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, request(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Writes this process's pid, atomically. */
  public void writePid() throws IOException {
    Files.createDirectories(dataDir);
    Path tmp = dataDir.resolve("ratchet.pid.tmp");
    Files.writeString(tmp, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, pid(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Removes the pid file if it still names this process. */
  public void removePid() {
    try {
      if (Files.readString(pid()).trim().equals(String.valueOf(ProcessHandle.current().pid()))) {
        Files.deleteIfExists(pid());
      }
    } catch (IOException e) {
      // gone already
    }
  }
}

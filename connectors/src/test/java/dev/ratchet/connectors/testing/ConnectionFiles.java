package dev.ratchet.connectors.testing;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes real connections files with real permissions. */
public final class ConnectionFiles {

  private ConnectionFiles() {
  }

  public static Path write(Path file, String content, String permissions) {
    try {
      Files.writeString(file, content);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Path writePrivate(Path file, JsonObject content) {
    return write(file, content.encodePrettily(), "rw-------");
  }

  public static JsonObject slackConnection(String name, String baseUrl, String token) {
    return new JsonObject().put("connections", new JsonObject().put(name, new JsonObject()
        .put("connector", "slack")
        .put("config", new JsonObject().put("baseUrl", baseUrl))
        .put("credentials", new JsonObject().put("botToken", token))));
  }
}

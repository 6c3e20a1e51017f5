package dev.ratchet.server.cli;

import dev.ratchet.verticles.RatchetConfig;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** The {@code --config} option of the commands that read Ratchet's configuration as {@code run} does. */
final class ConfigFile {

  @CommandLine.Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})",
      defaultValue = "conf/ratchet.json")
  Path path;

  /** The file, with what the environment overrides. */
  JsonObject load(Map<String, String> env) throws IOException {
    return RatchetConfig.load(path, env);
  }

  @Override
  public String toString() {
    return String.valueOf(path);
  }
}

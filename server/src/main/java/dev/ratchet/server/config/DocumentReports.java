package dev.ratchet.server.config;

import dev.ratchet.connectors.openapi.OpenApiDocument;
import dev.ratchet.connectors.openapi.OpenApiReport;
import dev.ratchet.server.config.impl.LocatedDocument;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each OpenAPI document named by the agent files offers ({@link OpenApiReport}): every
 * operation of the document, whichever the files select, for {@code ratchet check --report}.
 * A document is read once however many entries name it; one that cannot be read is said so.
 */
public final class DocumentReports {

  private DocumentReports() {
  }

  /** Lines to print: a report per document, or why it could not be read. Reads files: not for an event loop. */
  public static List<String> lines(List<Path> agentFiles) {
    Map<String, String> documents = new LinkedHashMap<>();
    for (Path file : agentFiles) {
      JsonObject root;
      try {
        root = LocatedDocument.parse(Files.readString(file, StandardCharsets.UTF_8), !file.toString().endsWith(".json"))
            .root();
      } catch (IOException | LocatedDocument.SyntaxError e) {
        continue;
      }
      if (root.getValue("tools") instanceof JsonArray tools) {
        for (Object t : tools) {
          if (t instanceof JsonObject entry && entry.getValue("openapi") instanceof String spec) {
            String connection = entry.getValue("connection") instanceof String c ? c : "api";
            documents.putIfAbsent(spec, connection.replaceAll("[^A-Za-z0-9]+", "_").toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, String> d : documents.entrySet()) {
      String spec = d.getKey();
      if (spec.startsWith("https://") || spec.startsWith("http://")) {
        lines.add(spec + ": not reported (a document read from a URL is reported when saved to a file)");
        continue;
      }
      try {
        lines.addAll(OpenApiReport.of(OpenApiDocument.load(connectorId(d.getValue()), Path.of(spec))).lines());
      } catch (RuntimeException e) {
        lines.add(spec + ": " + e.getMessage());
      }
    }
    return lines;
  }

  private static String connectorId(String name) {
    String id = name.matches("[a-z].*") ? name : "api_" + name;
    return id.length() > 32 ? id.substring(0, 32) : id;
  }
}

package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.impl.ToolNames;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real public OpenAPI documents of many vendors (src/test/resources/openapi-corpus, see its README)
 * become tools: {@code ratchet check --report}'s figures per document, at least 97 % of all
 * operations offered, and every offered input schema valid JSON Schema 2020-12 under the tool-name
 * and property-key rules of the OpenAI and Anthropic tool APIs.
 */
class OpenApiCorpusTest {

  private static final String CORPUS = "/openapi-corpus/";
  /** Anthropic's rule for the property keys of an input schema (OpenAI's is looser). */
  private static final Pattern PROPERTY_KEY = Pattern.compile("[a-zA-Z0-9_.-]{1,64}");

  @TempDir
  Path dir;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void publicDocumentsOfTenVendorsBecomeToolsModelApisAccept() throws IOException {
    List<OpenApiReport> reports = new ArrayList<>();
    List<String> schemaProblems = new ArrayList<>();
    for (Path file : documents()) {
      long start = System.nanoTime();
      OpenApiDocument doc = OpenApiDocument.load(connectorId(file), file);
      reports.add(OpenApiReport.of(doc));
      System.out.println(file.getFileName() + ": read in " + (System.nanoTime() - start) / 1_000_000 + " ms");
      for (OpenApiOperationSpec spec : doc.operations().values()) {
        if (!spec.problems().isEmpty() || !spec.definition().agent().exposed()) {
          continue;
        }
        String tool = ToolNames.toolName(doc.manifest().connectorId(), spec.operationId());
        String where = file.getFileName() + " " + spec.operationId() + ": ";
        if (!ToolNames.valid(tool)) {
          schemaProblems.add(where + "tool name '" + tool + "'");
        }
        JsonObject input = spec.definition().inputSchema();
        String invalid = MetaSchema.problem(input);
        if (invalid != null) {
          schemaProblems.add(where + invalid);
        }
        for (String key : input.getJsonObject("properties").fieldNames()) {
          if (!PROPERTY_KEY.matcher(key).matches()) {
            schemaProblems.add(where + "property key '" + key + "'");
          }
        }
      }
    }
    int operations = 0;
    int offered = 0;
    Map<String, Integer> refused = new TreeMap<>();
    for (OpenApiReport r : reports) {
      r.lines().forEach(System.out::println);
      operations += r.operations();
      offered += r.offered();
      r.refused().forEach((reason, n) -> refused.merge(reason, n, Integer::sum));
    }
    System.out.println("corpus: " + reports.size() + " documents, " + operations + " operations, " + offered
        + " offered (" + String.format("%.1f", 100.0 * offered / operations) + " %)");
    refused.forEach((reason, n) -> System.out.println("  refused " + n + ": " + reason));
    schemaProblems.stream().limit(40).forEach(p -> System.out.println("schema: " + p));
    System.out.println("schema problems: " + schemaProblems.size());

    assertThat(operations).isGreaterThanOrEqualTo(5000);
    assertThat(schemaProblems).isEmpty();
    assertThat(100.0 * offered / operations).isGreaterThanOrEqualTo(97.0);
  }

  private static String connectorId(Path file) {
    String id = file.getFileName().toString().replaceAll("\\..*", "").replaceAll("[^a-z0-9]+", "_")
        .toLowerCase(java.util.Locale.ROOT);
    return id.length() > 32 ? id.substring(0, 32) : id;
  }

  /** Every document of the corpus, unpacked into the temporary directory. */
  private List<Path> documents() throws IOException {
    List<Path> out = new ArrayList<>();
    List<String> names;
    try (InputStream in = getClass().getResourceAsStream(CORPUS + "documents.txt")) {
      names = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
          .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }
    for (String line : names) {
      String[] parts = line.split("\\s+");
      String name = parts[0];
      if (name.endsWith(".files.json.gz")) {
        // a multi-file document: its files by relative path; the line names the file that is the document
        JsonObject files = new JsonObject(gunzip(name));
        Path root = dir.resolve(name.replace(".files.json.gz", ""));
        for (String relative : files.fieldNames()) {
          Path f = root.resolve(relative);
          Files.createDirectories(f.getParent());
          Files.writeString(f, files.getString(relative), StandardCharsets.UTF_8);
        }
        out.add(root.resolve(parts[1]));
      } else {
        Path f = dir.resolve(name.replace(".gz", ""));
        Files.writeString(f, gunzip(name), StandardCharsets.UTF_8);
        out.add(f);
      }
    }
    return out;
  }

  private String gunzip(String name) {
    try (InputStream in = new GZIPInputStream(getClass().getResourceAsStream(CORPUS + name))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

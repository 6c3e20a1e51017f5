package dev.ratchet.verticles;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the documentation to the code, so that a user who follows it gets what it says.
 *
 * <p>The configuration tables are the one in README.md's "Configuration" section and the one in
 * docs/CONFIGURATION.md: every row whose first cell is a setting in {@code `section.key`} form.
 * For each such setting:
 * <ul>
 *   <li>it exists in conf/ratchet.json at that nested path (a {@code null} default counts), and
 *       every setting of conf/ratchet.json is in a table;</li>
 *   <li>it is read by the code: its last segment appears as a string literal ({@code "maxWaiting"})
 *       in the main Java sources of runtime/, connectors/, verticles/ (and server/, where present).
 *       This is a necessary condition, not a proof; the journal settings are also checked by
 *       behaviour, through {@link RatchetOptions#fromConfig(JsonObject)}.</li>
 * </ul>
 * Every {@code RATCHET_*} variable named in a table appears as a string literal in the same
 * sources. Every relative link in README.md, CHANGELOG.md and docs/*.md points at a file that exists,
 * and a link to a heading at a heading of that page.
 */
class ConfigurationDocsTest {

  private static final Pattern SETTING_ROW = Pattern.compile("^\\|\\s*`([a-z]+(?:\\.[A-Za-z]+)+)`");
  private static final Pattern VARIABLE = Pattern.compile("RATCHET_[A-Z_]*[A-Z]_?");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Path ROOT = root();

  @Test
  void everyDocumentedSettingIsInTheShippedConfigurationAndReadByTheCode() {
    JsonObject shipped = shippedConfiguration();
    String sources = mainSources();
    List<String> missing = new ArrayList<>();
    List<String> unread = new ArrayList<>();
    for (String setting : documentedSettings()) {
      if (!exists(shipped, setting)) {
        missing.add(setting);
      }
      String name = setting.substring(setting.lastIndexOf('.') + 1);
      if (!sources.contains("\"" + name + "\"")) {
        unread.add(setting);
      }
    }
    assertThat(missing).as("documented settings missing from conf/ratchet.json").isEmpty();
    assertThat(unread).as("documented settings no main source names").isEmpty();
  }

  @Test
  void everySettingOfTheShippedConfigurationIsDocumented() {
    Set<String> shipped = new TreeSet<>();
    leaves("", shippedConfiguration(), shipped);
    shipped.removeAll(documentedSettings());
    assertThat(shipped).as("settings of conf/ratchet.json in no configuration table").isEmpty();
  }

  @Test
  void everyDocumentedEnvironmentVariableIsReadByTheCode() {
    String sources = mainSources();
    Set<String> variables = new TreeSet<>();
    for (String row : configurationRows()) {
      Matcher m = VARIABLE.matcher(row);
      while (m.find()) {
        variables.add(m.group());
      }
    }
    assertThat(variables).contains("RATCHET_REDIS_URL", "RATCHET_DATA_DIR");
    assertThat(variables).as("documented variables no main source names")
        .filteredOn(v -> !sources.contains("\"" + v + "\""))
        .isEmpty();
  }

  @Test
  void theRuntimeReadsEveryJournalSettingOfTheConfiguration() {
    JsonObject config = shippedConfiguration().put("redis", new JsonObject().put("url", "redis://127.0.0.1:6379"))
        .put("journal", new JsonObject().put("keyPrefix", "docs-check").put("maxPoolSize", 3).put("maxWaiting", 77));
    RatchetOptions options = RatchetOptions.fromConfig(config);
    assertThat(options.journalOptions().keyPrefix()).isEqualTo("docs-check");
    assertThat(options.journalOptions().maxPoolSize()).isEqualTo(3);
    assertThat(options.journalOptions().maxWaiting()).isEqualTo(77);
  }

  @Test
  void everyRelativeLinkInTheDocsLeadsToAnExistingFileAndHeading() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    if (Files.exists(ROOT.resolve("CHANGELOG.md"))) {
      pages.add(ROOT.resolve("CHANGELOG.md"));
    }
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      for (String target : relativeLinks(page)) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(linked)) {
          broken.add(ROOT.relativize(page) + ": " + target);
        } else if (hash >= 0 && linked.toString().endsWith(".md")
            && !headingAnchors(linked).contains(target.substring(hash + 1))) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("relative links to files or headings that do not exist").isEmpty();
  }

  /** The anchors a Markdown renderer such as GitHub's gives a page's headings. */
  private static Set<String> headingAnchors(Path page) {
    Set<String> anchors = new LinkedHashSet<>();
    boolean fenced = false;
    for (String line : lines(page)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.matches("^#+\\s+.*")) {
        String title = line.replaceFirst("^#+\\s+", "").strip().toLowerCase(Locale.ROOT);
        anchors.add(title.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }

  private static List<String> relativeLinks(Path page) {
    List<String> links = new ArrayList<>();
    boolean fenced = false;
    for (String line : lines(page)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-z]+:.*")) {
          links.add(target);
        }
      }
    }
    return links;
  }

  private static Set<String> documentedSettings() {
    Set<String> settings = new LinkedHashSet<>();
    for (String row : configurationRows()) {
      Matcher m = SETTING_ROW.matcher(row);
      if (m.find()) {
        settings.add(m.group(1));
      }
    }
    assertThat(settings).as("settings found in the configuration tables").contains("journal.keyPrefix");
    return settings;
  }

  /** Table rows of README.md's "Configuration" section and of docs/CONFIGURATION.md. */
  private static List<String> configurationRows() {
    List<String> rows = new ArrayList<>();
    boolean inSection = false;
    for (String line : lines(ROOT.resolve("README.md"))) {
      if (line.startsWith("## ")) {
        inSection = line.startsWith("## Configuration");
      } else if (inSection && line.startsWith("|")) {
        rows.add(line);
      }
    }
    Path reference = ROOT.resolve("docs/CONFIGURATION.md");
    if (Files.exists(reference)) {
      // the keys of agent files are not settings: AgentFilesDocsTest holds them to docs/agent.schema.json
      boolean agentFiles = false;
      for (String line : lines(reference)) {
        if (line.startsWith("## ")) {
          agentFiles = line.startsWith("## Agent files");
        } else if (!agentFiles && line.startsWith("|")) {
          rows.add(line);
        }
      }
    }
    return rows;
  }

  private static boolean exists(JsonObject json, String dotted) {
    String[] path = dotted.split("\\.");
    JsonObject node = json;
    for (int i = 0; i < path.length - 1; i++) {
      Object next = node.getValue(path[i]);
      if (!(next instanceof JsonObject)) {
        return false;
      }
      node = (JsonObject) next;
    }
    return node.containsKey(path[path.length - 1]);
  }

  private static void leaves(String prefix, JsonObject json, Set<String> out) {
    for (String key : json.fieldNames()) {
      Object value = json.getValue(key);
      if (value instanceof JsonObject nested) {
        leaves(prefix + key + ".", nested, out);
      } else {
        out.add(prefix + key);
      }
    }
  }

  private static JsonObject shippedConfiguration() {
    return new JsonObject(String.join("\n", lines(ROOT.resolve("conf/ratchet.json"))));
  }

  private static String mainSources() {
    StringBuilder all = new StringBuilder();
    for (String module : List.of("runtime", "connectors", "verticles", "server")) {
      Path dir = ROOT.resolve(module).resolve("src/main/java");
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(dir)) {
        files.filter(p -> p.toString().endsWith(".java")).forEach(p -> all.append(String.join("\n", lines(p))));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return all.toString();
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("conf/ratchet.json"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no conf/ratchet.json above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}

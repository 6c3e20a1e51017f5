package dev.ratchet.verticles;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No main code of any module reads or writes a dependency's private state: an upgrade can rename
 * or remove a private field without notice (docs/ARCHITECTURE.md). Scans the sources, so that it
 * sees every module, the server and the adapters included.
 */
class NoPrivateReflectionTest {

  private static final Pattern PRIVATE_REACH = Pattern.compile(
      "\\b(privateLookupIn|(try)?[sS]etAccessible|getDeclaredFields?|findVarHandle|findStaticVarHandle)\\b");

  @Test
  void noMainCodeReachesIntoAnotherLibrarysPrivateState() throws IOException {
    Path root = repositoryRoot();
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.filter(NoPrivateReflectionTest::isMainSource)::iterator) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        Matcher m = PRIVATE_REACH.matcher(Files.readString(file));
        if (m.find()) {
          found.add(relative + ": " + m.group());
        }
      }
    }
    assertThat(found).as("main code using reflection into private state").isEmpty();
  }

  @Test
  void theScanSeesEveryModulesMainSources() throws IOException {
    Path root = repositoryRoot();
    try (Stream<Path> files = Files.walk(root)) {
      List<String> modules = files.filter(NoPrivateReflectionTest::isMainSource)
          .map(f -> root.relativize(f).toString().replace('\\', '/'))
          .map(f -> f.substring(0, f.indexOf("/src/main/java/"))).distinct().toList();
      assertThat(modules).contains("runtime", "connectors", "verticles", "server");
    }
  }

  private static boolean isMainSource(Path file) {
    String path = file.toString().replace('\\', '/');
    return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/")
        && !path.contains("/node_modules/");
  }

  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("runtime/pom.xml"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("the repository root above " + Path.of("").toAbsolutePath()).isNotNull();
    return dir;
  }
}

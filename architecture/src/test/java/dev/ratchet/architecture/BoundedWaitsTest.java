package dev.ratchet.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No test waits for a future without a bound: a future that never completes must fail its test
 * within seconds, not hang the build. Tests wait with {@code Await.await(future)} (runtime's test
 * jar) or {@code future.await(seconds, TimeUnit.SECONDS)}; Vert.x's {@code future.await()} and
 * {@code Future.await(future)}, and {@code join()} or {@code get()} of its completable future, wait
 * forever. Scans the sources, so that it sees every module's tests and the fixtures that the testing
 * module ships.
 */
class BoundedWaitsTest {

  private static final Pattern UNBOUNDED = Pattern.compile(
      "\\.await\\(\\s*\\)|\\bFuture\\.await\\(|toCompletableFuture\\(\\)\\s*\\.(join|get)\\(\\s*\\)");

  @Test
  void noTestWaitsForAFutureWithoutATimeout() throws IOException {
    assertThat(unboundedWaits(repositoryRoot()))
        .as("waits without a timeout (use Await.await(future) or future.await(seconds, unit))").isEmpty();
  }

  @Test
  void theScanSeesEveryModulesTests() throws IOException {
    Path root = repositoryRoot();
    List<String> modules = scanned(root).stream()
        .map(f -> root.relativize(f).toString().replace('\\', '/'))
        .map(f -> f.substring(0, f.indexOf("/src/"))).distinct().toList();
    assertThat(modules).contains("runtime", "connectors", "verticles", "server", "testing", "adapters/turns");
  }

  /** Each wait without a bound as file:line: code, comments left out. */
  private static List<String> unboundedWaits(Path root) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : scanned(root)) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).strip();
        boolean comment = line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
        if (!comment && UNBOUNDED.matcher(line).find()) {
          found.add(root.relativize(file).toString().replace('\\', '/') + ":" + (i + 1) + ": " + line);
        }
      }
    }
    return found;
  }

  private static List<Path> scanned(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(BoundedWaitsTest::isScanned).toList();
    }
  }

  private static boolean isScanned(Path file) {
    String path = file.toString().replace('\\', '/');
    boolean source = path.contains("/src/test/java/") || path.contains("/testing/src/main/java/");
    return source && path.endsWith(".java") && !path.contains("/target/") && !path.contains("/node_modules/");
  }

  /** Maven runs the tests in the module's folder, which sits directly under the repository root. */
  private static Path repositoryRoot() {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assertThat(root.resolve("runtime/pom.xml")).as("the repository root").exists();
    return root;
  }
}

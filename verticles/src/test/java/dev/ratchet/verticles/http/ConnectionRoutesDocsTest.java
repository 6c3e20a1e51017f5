package dev.ratchet.verticles.http;

import dev.ratchet.verticles.http.impl.ConnectionRoutes;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection routes that docs/TOOL-SOURCES.md and docs/HTTP-API.md list are the ones the server
 * mounts, no more and no fewer.
 */
class ConnectionRoutesDocsTest {

  private static final Pattern ROW = Pattern.compile("^\\| `(GET|POST|DELETE) (/api/[^`\\[?\\s]+)");

  @Test
  void theDocumentedConnectionRoutesAreTheMountedOnes() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Router router = Router.router(vertx);
      new ConnectionRoutes(Map.of()).mount(router);
      Set<String> mounted = new TreeSet<>();
      for (Route r : router.getRoutes()) {
        r.methods().forEach(m -> mounted.add(m.name() + " " + normalized(r.getPath())));
      }
      assertThat(mounted).isNotEmpty();
      assertThat(documented("docs/TOOL-SOURCES.md")).isEqualTo(mounted);
      assertThat(documented("docs/HTTP-API.md")).containsAll(mounted);
    } finally {
      vertx.close();
    }
  }

  /** The connection routes a document's tables list: its rows about providers and connections. */
  private static Set<String> documented(String doc) throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve(doc))) {
      root = root.getParent();
    }
    Set<String> routes = new TreeSet<>();
    for (String line : Files.readAllLines(root.resolve(doc))) {
      Matcher m = ROW.matcher(line);
      if (m.find() && (m.group(2).startsWith("/api/providers") || m.group(2).startsWith("/api/connections"))) {
        routes.add(m.group(1) + " " + normalized(m.group(2)));
      }
    }
    return routes;
  }

  /** A path with each parameter, {@code {p}} or {@code :provider}, as {@code *}. */
  private static String normalized(String path) {
    return path.replaceAll("\\{[^}]+}|:[A-Za-z]+", "*");
  }
}

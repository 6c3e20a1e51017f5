package dev.ratchet.turns;

import dev.ratchet.turns.testing.Shop;
import dev.ratchet.turns.testing.TestShop;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An application that reaches Ratchet over HTTP needs no part of the server: {@link RatchetTurns#http}
 * runs with ratchet-verticles (the HTTP API, the dashboard, their dependencies) off the classpath.
 */
class HttpOnlyClasspathTest {

  @RegisterExtension
  static final TestShop SHOP = new TestShop("http-only-classpath-test");

  private static final String TOKEN = "token-" + UUID.randomUUID();

  @Test
  void theHttpClientListsTheCatalogueWithoutTheVerticlesModuleOnItsClasspath() throws Throwable {
    HttpServerVerticle server = new HttpServerVerticle(SHOP.shop().ratchet(), HttpOptions.create().port(0)
        .host("127.0.0.1").token("bot", Role.AGENT, PasswordHash.hashToken(TOKEN), "tenant-a"));
    await(SHOP.shop().vertx().deployVerticle(server));
    URI base = URI.create("http://127.0.0.1:" + server.actualPort());

    ClassLoader platform = ClassLoader.getPlatformClassLoader();
    try (URLClassLoader httpOnly = new URLClassLoader(classpathWithoutVerticles(), platform)) {
      assertThatThrownBy(() -> httpOnly.loadClass("dev.ratchet.verticles.RatchetNode"))
          .isInstanceOf(ClassNotFoundException.class);
      Class<?> turnsType = httpOnly.loadClass(RatchetTurns.class.getName());
      // linked the way compiled code links them: each method alone, as a call site does
      Object turns = MethodHandles.publicLookup()
          .findStatic(turnsType, "http", MethodType.methodType(turnsType, URI.class, String.class, String.class))
          .invoke(base, Shop.AGENT, TOKEN);
      List<?> tools = (List<?>) MethodHandles.publicLookup()
          .findVirtual(turnsType, "toolList", MethodType.methodType(List.class)).invoke(turns);
      List<Object> names = new ArrayList<>();
      for (Object tool : tools) {
        names.add(tool.getClass().getMethod("name").invoke(tool));
      }
      assertThat(names).containsExactly("look_up_order", "refund_order", "email_customer");
    }
  }

  private static URL[] classpathWithoutVerticles() throws MalformedURLException {
    List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String path = entry.replace('\\', '/');
      if (!path.contains("/verticles/target/") && !path.contains("/ratchet-verticles-")) {
        urls.add(new File(entry).toURI().toURL());
      }
    }
    return urls.toArray(URL[]::new);
  }
}

package dev.ratchet.server.cli;

import dev.ratchet.host.FreePorts;
import dev.ratchet.server.ChildOutput;
import dev.ratchet.server.Main;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin password and demo token that {@code ratchet run} generates are kept in an owner-only
 * file and stay the same across restarts; a configured admin password shorter than 12 characters
 * stops the start with one clear line.
 */
class AdminCredentialsTest {

  @TempDir
  Path dir;

  private Process child;
  private Thread reader;
  private final List<String> output = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    stopChild();
  }

  private void stopChild() throws InterruptedException {
    if (child != null && child.isAlive()) {
      child.destroy();
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  private void run(int httpPort, Map<String, String> extraEnv) throws IOException {
    output.clear();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "run", "--no-demo").directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("RATCHET_"));
    env.put("RATCHET_DATA_DIR", dir.resolve("data").toString());
    env.put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
    env.put("RATCHET_REDIS_PORT", String.valueOf(FreePorts.next()));
    env.putAll(extraEnv);
    child = pb.start();
    reader = ChildOutput.collect(child, output, "run-output");
  }

  /** Waits until the child's output is read to its end, so that what it does not contain is known. */
  private void allOutput() throws InterruptedException {
    reader.join(10_000);
    assertThat(reader.isAlive()).as("the child's output read to its end").isFalse();
  }

  private String awaitLine(String prefix) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < deadline) {
      for (String l : output) {
        if (l.startsWith(prefix)) {
          return l;
        }
      }
      if (!child.isAlive()) {
        reader.join(10_000);
        throw new AssertionError("ratchet run exited with " + child.exitValue() + ": " + output);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no line '" + prefix + "' in " + output);
  }


  private static int login(int port, String password) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/login")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("name", "admin").put("password", password)
            .encode())).build(), HttpResponse.BodyHandlers.ofString());
    return r.statusCode();
  }

  @Test
  void generatedCredentialsAreKeptInAnOwnerOnlyFileAndReusedOnTheNextStart() throws IOException {
    Path file = dir.resolve("data").resolve("credentials.json");
    HttpOptions first = HttpOptions.create();
    AdminCredentials created = AdminCredentials.apply(first, true, Map.of(), file);
    JsonObject stored = new JsonObject(Files.readString(file));
    String password = stored.getString("adminPassword");
    assertThat(password).hasSizeGreaterThanOrEqualTo(AdminCredentials.MIN_PASSWORD_LENGTH);
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(PasswordHash.verifyPassword(password.toCharArray(), first.users().get(0).passwordHash())).isTrue();
    assertThat(first.tokens().get(0).tokenHash()).isEqualTo(PasswordHash.hashToken(stored.getString("demoToken")));
    assertThat(created.lines).singleElement().asString().contains("password " + password).contains(file.toString());
    assertThat(created.printableDemoToken).isEqualTo(stored.getString("demoToken"));

    HttpOptions second = HttpOptions.create();
    AdminCredentials again = AdminCredentials.apply(second, true, Map.of(), file);
    assertThat(PasswordHash.verifyPassword(password.toCharArray(), second.users().get(0).passwordHash())).isTrue();
    assertThat(second.tokens().get(0).tokenHash()).isEqualTo(first.tokens().get(0).tokenHash());
    assertThat(again.lines).singleElement().asString().contains("the password in " + file)
        .doesNotContain(password);
    assertThat(again.printableDemoToken).isNull();
    assertThat(new JsonObject(Files.readString(file))).isEqualTo(stored);
    try (var files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void aFileOthersCouldReadIsMadeOwnerOnly() throws IOException {
    Path file = dir.resolve("credentials.json");
    AdminCredentials.apply(HttpOptions.create(), false, Map.of(), file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    AdminCredentials.apply(HttpOptions.create(), false, Map.of(), file);
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void aShortAdminPasswordStopsTheStartWithOneClearLine() throws Exception {
    run(FreePorts.next(), Map.of("RATCHET_ADMIN_PASSWORD", "short-pass"));
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    allOutput();
    assertThat(child.exitValue()).isEqualTo(1);
    assertThat(output).contains("Ratchet could not start: RATCHET_ADMIN_PASSWORD must be at least 12 characters long"
        + " (it has 10)");
    assertThat(String.join("\n", output)).doesNotContain("\tat ").doesNotContain("short-pass");
  }

  @Test
  void theGeneratedAdminPasswordStillLogsInAfterARestart() throws Exception {
    int port = FreePorts.next();
    Path file = dir.resolve("data").resolve("credentials.json").toAbsolutePath();
    run(port, Map.of());
    String first = awaitLine("  Log in as admin with ");
    assertThat(first).contains("(generated; kept in " + file + ", readable only by you)");
    String password = first.substring("  Log in as admin with password ".length()).split(" ")[0];
    assertThat(output).anyMatch(l -> l.contains("http: API and dashboard on http://127.0.0.1:" + port
        + "/ (local only; session cookies not Secure: set http.secureCookies when served over HTTPS)"));
    assertThat(login(port, password)).isEqualTo(200);
    stopChild();

    run(port, Map.of());
    assertThat(awaitLine("  Log in as admin with ")).isEqualTo("  Log in as admin with the password in " + file
        + " (configure http.users to choose your own)");
    assertThat(output).noneMatch(l -> l.contains(password));
    assertThat(login(port, password)).isEqualTo(200);
  }
}

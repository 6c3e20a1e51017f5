package dev.ratchet.server.cli;

import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code admin} login and the demo agent's token of an install that configures none. A value
 * from {@code RATCHET_ADMIN_PASSWORD} or {@code RATCHET_DEMO_TOKEN} is used as given; otherwise
 * one is generated once and kept in the credentials file (owner-only, 0600), so it stays the same
 * across restarts. The file is {@code http.credentialsFile}, by default {@code credentials.json}
 * next to the embedded Redis's data directory ({@code ./data/credentials.json}).
 */
final class AdminCredentials {

  static final int MIN_PASSWORD_LENGTH = 12;
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  /** What the console says about the credentials, line by line. */
  final java.util.List<String> lines = new java.util.ArrayList<>();
  /** The demo token to show in the examples, or null when it is not to be printed. */
  String printableDemoToken;
  String demoTokenSource;

  /** Where the credentials file is: {@code http.credentialsFile}, else next to the embedded Redis's data. */
  static Path file(JsonObject config) {
    String configured = config.getJsonObject("http", new JsonObject()).getString("credentialsFile");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    JsonObject embedded = config.getJsonObject("redis", new JsonObject()).getJsonObject("embedded", new JsonObject());
    Path redisData = Path.of(embedded.getString("dataDir", "./data/redis")).toAbsolutePath().normalize();
    return (redisData.getParent() == null ? redisData : redisData.getParent()).resolve("credentials.json");
  }

  /** Refuses an admin password that is too short to hold against guessing; null when it is acceptable. */
  static String checkPassword(String source, String password) {
    if (password != null && !password.isBlank() && password.length() < MIN_PASSWORD_LENGTH) {
      return source + " must be at least " + MIN_PASSWORD_LENGTH + " characters long (it has " + password.length()
          + ")";
    }
    return null;
  }

  /**
   * Adds the {@code admin} user when {@code http.users} is empty and, when {@code http.tokens} is
   * empty, the demo token: the one in {@code RATCHET_DEMO_TOKEN}, or a generated one when the demo
   * runs; reads or creates the credentials file when a value has to be generated.
   */
  static AdminCredentials apply(HttpOptions http, boolean demo, Map<String, String> env, Path file) throws IOException {
    AdminCredentials out = new AdminCredentials();
    boolean needAdmin = http.users().isEmpty();
    // a token the operator set is honoured without the demo agent; one is generated only for the demo
    boolean needToken = http.tokens().isEmpty() && (demo || blankToNull(env.get("RATCHET_DEMO_TOKEN")) != null);
    String password = needAdmin ? blankToNull(env.get("RATCHET_ADMIN_PASSWORD")) : null;
    String token = needToken ? blankToNull(env.get("RATCHET_DEMO_TOKEN")) : null;
    // a short password in the environment is refused even while http.users leaves it unused
    String problem = checkPassword("RATCHET_ADMIN_PASSWORD", env.get("RATCHET_ADMIN_PASSWORD"));
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    Stored stored = null;
    if (needAdmin && password == null || needToken && token == null) {
      stored = Stored.loadOrCreate(file, needToken);
      problem = checkPassword("the admin password in " + file, stored.password);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
    }
    if (needAdmin) {
      boolean generated = password == null;
      if (generated) {
        password = stored.password;
      }
      // the one person of a fresh install approves every session, whichever caller it belongs to
      http.user("admin", Role.APPROVER, PasswordHash.hashPassword(password.toCharArray()), null,
          List.of(HttpOptions.ALL_TENANTS));
      out.lines.add("  Log in as admin with " + (!generated ? "the password from RATCHET_ADMIN_PASSWORD"
          : stored.created ? "password " + password + " (generated; kept in " + file + ", readable only by you)"
          : "the password in " + file) + " (configure http.users to choose your own)");
    }
    if (needToken) {
      boolean generated = token == null;
      if (generated) {
        token = stored.demoToken;
      }
      http.token("demo-agent", Role.AGENT, PasswordHash.hashToken(token));
      out.printableDemoToken = generated && stored.created ? token : null;
      out.demoTokenSource = !generated ? "from RATCHET_DEMO_TOKEN" : stored.created ? token + " (kept in " + file + ")"
          : "\"demoToken\" in " + file + " (export RATCHET_DEMO_TOKEN=<it> for the examples below)";
    }
    return out;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  /** The file's content: generated values, and whether this start created them. */
  static final class Stored {
    final String password;
    final String demoToken;
    final boolean created;

    private Stored(String password, String demoToken, boolean created) {
      this.password = password;
      this.demoToken = demoToken;
      this.created = created;
    }

    /** The stored values; a demo token is generated only {@code withToken}, for a demo that runs. */
    static Stored loadOrCreate(Path file, boolean withToken) throws IOException {
      if (Files.exists(file)) {
        JsonObject json;
        try {
          json = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
          throw new IOException(file + " is not valid JSON: delete it to generate new credentials");
        }
        if (posix() && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
          Files.setPosixFilePermissions(file, OWNER_ONLY);
          System.out.println("Made " + file + " readable by its owner only (it holds the admin password)");
        }
        String password = json.getString("adminPassword");
        String token = json.getString("demoToken");
        if (password != null && (token != null || !withToken)) {
          return new Stored(password, token, false);
        }
        return write(file, password == null ? newPassword() : password,
            token == null && withToken ? PasswordHash.newToken() : token);
      }
      return write(file, newPassword(), withToken ? PasswordHash.newToken() : null);
    }

    private static String newPassword() {
      return PasswordHash.newToken().substring(3, 27);
    }

    /** Written to a temporary owner-only file first, then renamed: never a partial or readable file. */
    private static Stored write(Path file, String password, String token) throws IOException {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = posix() ? Files.createTempFile(dir, ".credentials", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
          : Files.createTempFile(dir, ".credentials", ".tmp");
      try {
        JsonObject stored = new JsonObject().put("adminUser", "admin").put("adminPassword", password);
        if (token != null) {
          stored.put("demoToken", token);
        }
        Files.writeString(tmp, stored.encodePrettily() + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
      return new Stored(password, token, true);
    }

    private static boolean posix() {
      return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }
  }
}

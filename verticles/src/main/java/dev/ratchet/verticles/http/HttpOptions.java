package dev.ratchet.verticles.http;

import dev.ratchet.runtime.Ids;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings of the HTTP API and dashboard: the {@code http} section of {@code conf/ratchet.json}.
 * <pre>{@code
 * "http": {
 *   "port": 8080, "host": "127.0.0.1", "bodyLimitBytes": 1048576, "preAuthBodyLimitBytes": 16384,
 *   "secureCookies": false, "sessionStore": "redis", "fourEyes": false,
 *   "login": {"freeFailures": 5, "addressFreeFailures": 50, "lockoutMillis": 1000, "maxLockoutMillis": 900000},
 *   "users":  [{"name": "ana", "role": "approver", "passwordHash": "pbkdf2-sha256$310000$...",
 *               "tenants": ["tenant-acme"]},
 *              {"name": "ops", "role": "viewer", "passwordHash": "pbkdf2-sha256$310000$...", "tenants": "*"}],
 *   "tokens": [{"name": "support-bot", "role": "agent", "tokenHash": "<hex sha-256>"},
 *              {"name": "acme-bot", "role": "agent", "tokenHash": "<hex sha-256>", "resourceId": "tenant-acme"}]
 * }
 * }</pre>
 * The sessions a user or token creates over HTTP belong to its caller id: its {@code resourceId}
 * when one is configured, else its name. Tools with caller-supplied connections run as that id.
 * A user or token sees the sessions of its own caller id and of the callers in its {@code tenants}
 * ({@code "*"}: every session, also those created without a caller through the Java API).
 * {@code RATCHET_HTTP_PORT} overrides the port. The default host answers on this machine only;
 * {@code "host": "0.0.0.0"} serves every interface (then behind TLS, with {@code secureCookies}).
 */
public final class HttpOptions {

  /**
   * A person who logs in to the dashboard; {@code resourceId} may be null (the name is the caller id),
   * {@code tenants} may be null (sees its own caller id's sessions only).
   */
  public record User(String name, Role role, String passwordHash, String resourceId, List<String> tenants) {

    public User(String name, Role role, String passwordHash) {
      this(name, role, passwordHash, null, null);
    }

    public User(String name, Role role, String passwordHash, String resourceId) {
      this(name, role, passwordHash, resourceId, null);
    }

    /** The caller id of the sessions this user creates. */
    public String callerId() {
      return resourceId == null ? name : resourceId;
    }
  }

  /**
   * An API token for an agent or script, known only by its SHA-256; {@code resourceId} may be null
   * (the name is the caller id), {@code tenants} may be null (sees its own caller id's sessions only).
   */
  public record Token(String name, Role role, String tokenHash, String resourceId, List<String> tenants) {

    public Token(String name, Role role, String tokenHash) {
      this(name, role, tokenHash, null, null);
    }

    public Token(String name, Role role, String tokenHash, String resourceId) {
      this(name, role, tokenHash, resourceId, null);
    }

    /** The caller id of the sessions this token creates. */
    public String callerId() {
      return resourceId == null ? name : resourceId;
    }
  }

  /** The {@code tenants} value of an operator: every session, also those created without a caller. */
  public static final String ALL_TENANTS = "*";
  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_BODY_LIMIT = 1024 * 1024;
  public static final long DEFAULT_PRE_AUTH_BODY_LIMIT = 16 * 1024;
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** Where login sessions live: the journal's Redis (they survive a restart) or this process's memory. */
  public enum SessionStore { REDIS, LOCAL }

  private int port = DEFAULT_PORT;
  private String host = DEFAULT_HOST;
  private long bodyLimitBytes = DEFAULT_BODY_LIMIT;
  private long preAuthBodyLimitBytes = DEFAULT_PRE_AUTH_BODY_LIMIT;
  private boolean secureCookies;
  private SessionStore sessionStore = SessionStore.REDIS;
  private int loginFreeFailures = 5;
  private int loginAddressFreeFailures = 50;
  private long loginLockoutMillis = 1_000;
  private long loginMaxLockoutMillis = 15 * 60_000L;
  private long sessionTimeoutMillis = 8 * 3600_000L;
  private long mcpProgressMillis = 10_000;
  private boolean fourEyes;
  private final List<User> users = new ArrayList<>();
  private final List<Token> tokens = new ArrayList<>();

  public static HttpOptions create() {
    return new HttpOptions();
  }

  /** Reads the {@code http} section; {@code RATCHET_HTTP_PORT} wins over {@code port}. */
  public static HttpOptions fromConfig(JsonObject http) {
    return fromConfig(http, System.getenv("RATCHET_HTTP_PORT"));
  }

  static HttpOptions fromConfig(JsonObject http, String portOverride) {
    JsonObject json = http == null ? new JsonObject() : http;
    HttpOptions o = new HttpOptions();
    o.port = json.getInteger("port", DEFAULT_PORT);
    if (portOverride != null && !portOverride.isBlank()) {
      o.port = Integer.parseInt(portOverride.trim());
    }
    o.host = json.getString("host", o.host);
    o.bodyLimitBytes = json.getLong("bodyLimitBytes", o.bodyLimitBytes);
    o.preAuthBodyLimitBytes(json.getLong("preAuthBodyLimitBytes", o.preAuthBodyLimitBytes));
    o.secureCookies = json.getBoolean("secureCookies", false);
    String store = json.getString("sessionStore", "redis");
    try {
      o.sessionStore = SessionStore.valueOf(store.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("http.sessionStore must be \"redis\" or \"local\", got '" + store + "'");
    }
    JsonObject login = json.getJsonObject("login", new JsonObject());
    o.loginLockout(login.getInteger("freeFailures", o.loginFreeFailures),
        login.getLong("lockoutMillis", o.loginLockoutMillis), login.getLong("maxLockoutMillis", o.loginMaxLockoutMillis));
    o.loginAddressFreeFailures(login.getInteger("addressFreeFailures", o.loginAddressFreeFailures));
    o.sessionTimeoutMillis = json.getLong("sessionTimeoutMillis", o.sessionTimeoutMillis);
    o.mcpProgressMillis(json.getLong("mcpProgressMillis", o.mcpProgressMillis));
    Object fourEyes = json.getValue("fourEyes", false);
    if (!(fourEyes instanceof Boolean)) {
      throw new IllegalArgumentException("http.fourEyes must be true or false");
    }
    o.fourEyes = (Boolean) fourEyes;
    for (Object u : json.getJsonArray("users", new JsonArray())) {
      JsonObject user = (JsonObject) u;
      o.user(user.getString("name"), Role.fromWireName(user.getString("role", "viewer")),
          user.getString("passwordHash"), user.getString("resourceId"),
          tenants("http.users", user.getString("name"), user.getValue("tenants")));
    }
    for (Object t : json.getJsonArray("tokens", new JsonArray())) {
      JsonObject token = (JsonObject) t;
      o.token(token.getString("name"), Role.fromWireName(token.getString("role", "agent")),
          token.getString("tokenHash"), token.getString("resourceId"),
          tenants("http.tokens", token.getString("name"), token.getValue("tenants")));
    }
    return o;
  }

  public HttpOptions port(int port) {
    this.port = port;
    return this;
  }

  public HttpOptions host(String host) {
    this.host = host;
    return this;
  }

  public HttpOptions bodyLimitBytes(long limit) {
    this.bodyLimitBytes = limit;
    return this;
  }

  /** The most a request may send before its caller is known (the login form, a refused request). */
  public HttpOptions preAuthBodyLimitBytes(long limit) {
    if (limit < 1024) {
      throw new IllegalArgumentException("http.preAuthBodyLimitBytes must be at least 1024");
    }
    this.preAuthBodyLimitBytes = limit;
    return this;
  }

  /** Where login sessions are kept; {@link SessionStore#LOCAL} forgets them when the process stops. */
  public HttpOptions sessionStore(SessionStore store) {
    this.sessionStore = store;
    return this;
  }

  /**
   * Log-in throttling, per user name and client address pair: {@code freeFailures} failed log-ins
   * are free, then each further one locks the name out from that address for
   * {@code lockoutMillis}, doubling up to {@code maxLockoutMillis}.
   */
  public HttpOptions loginLockout(int freeFailures, long lockoutMillis, long maxLockoutMillis) {
    if (freeFailures < 1 || lockoutMillis < 1 || maxLockoutMillis < lockoutMillis) {
      throw new IllegalArgumentException("http.login needs freeFailures >= 1 and 1 <= lockoutMillis <= maxLockoutMillis");
    }
    this.loginFreeFailures = freeFailures;
    this.loginAddressFreeFailures = Math.max(loginAddressFreeFailures, freeFailures);
    this.loginLockoutMillis = lockoutMillis;
    this.loginMaxLockoutMillis = maxLockoutMillis;
    return this;
  }

  /**
   * The failed log-ins from one client address, whatever the names, before the address itself is
   * locked out the same way: higher than {@code freeFailures}, so that one guessed name does not
   * lock the address's other users out.
   */
  public HttpOptions loginAddressFreeFailures(int addressFreeFailures) {
    if (addressFreeFailures < loginFreeFailures) {
      throw new IllegalArgumentException("http.login.addressFreeFailures must be at least http.login.freeFailures ("
          + loginFreeFailures + "), got " + addressFreeFailures);
    }
    this.loginAddressFreeFailures = addressFreeFailures;
    return this;
  }

  /** Marks the session cookie Secure; turn on when the dashboard is served over HTTPS. */
  public HttpOptions secureCookies(boolean secure) {
    this.secureCookies = secure;
    return this;
  }

  public HttpOptions sessionTimeoutMillis(long millis) {
    this.sessionTimeoutMillis = millis;
    return this;
  }

  /**
   * How often an MCP call that waits (for an approval, or a slow tool) tells its client it is alive:
   * a progress notification when the client sent a progress token, else an SSE comment. Keep it
   * below the clients' request timeout, which many reset on progress.
   */
  public HttpOptions mcpProgressMillis(long millis) {
    if (millis < 100) {
      throw new IllegalArgumentException("http.mcpProgressMillis must be at least 100");
    }
    this.mcpProgressMillis = millis;
    return this;
  }

  /** Adds a dashboard user; {@code passwordHash} comes from {@link PasswordHash#hashPassword(char[])}. */
  public HttpOptions user(String name, Role role, String passwordHash) {
    return user(name, role, passwordHash, null);
  }

  /** Adds a dashboard user whose sessions belong to {@code resourceId} (null: to its name). */
  public HttpOptions user(String name, Role role, String passwordHash, String resourceId) {
    return user(name, role, passwordHash, resourceId, null);
  }

  /**
   * Adds a dashboard user whose sessions belong to {@code resourceId} (null: to its name) and who
   * sees the sessions of its own caller id and of {@code tenants} (null: its own only;
   * {@code ["*"]}: every session).
   */
  public HttpOptions user(String name, Role role, String passwordHash, String resourceId, List<String> tenants) {
    if (name == null || name.isBlank() || passwordHash == null || passwordHash.isBlank()) {
      throw new IllegalArgumentException("http.users entries need 'name' and 'passwordHash'");
    }
    checkResourceId("http.users", name, resourceId);
    checkTenants("http.users", name, tenants);
    users.add(new User(name, role, passwordHash, resourceId, tenants == null ? null : List.copyOf(tenants)));
    return this;
  }

  /** The {@code tenants} setting as a list: absent is null, {@code "*"} is {@code ["*"]}. */
  private static List<String> tenants(String section, String name, Object value) {
    if (value == null) {
      return null;
    }
    if (ALL_TENANTS.equals(value)) {
      return List.of(ALL_TENANTS);
    }
    if (!(value instanceof JsonArray)) {
      throw new IllegalArgumentException(section + " entry '" + name + "': 'tenants' must be \"*\" or a list of"
          + " caller ids");
    }
    List<String> list = new ArrayList<>();
    for (Object t : (JsonArray) value) {
      if (!(t instanceof String)) {
        throw new IllegalArgumentException(section + " entry '" + name + "': 'tenants' must hold caller ids"
            + " (strings), found " + t);
      }
      list.add((String) t);
    }
    return list;
  }

  private static void checkTenants(String section, String name, List<String> tenants) {
    if (tenants == null) {
      return;
    }
    if (tenants.isEmpty()) {
      throw new IllegalArgumentException(section + " entry '" + name + "': 'tenants' is empty; leave it out to see"
          + " only the entry's own sessions");
    }
    if (tenants.contains(ALL_TENANTS) && tenants.size() > 1) {
      throw new IllegalArgumentException(section + " entry '" + name + "': 'tenants' \"*\" already means every"
          + " tenant; give it alone");
    }
    for (String t : tenants) {
      if (!ALL_TENANTS.equals(t) && (t == null || !Ids.valid(t))) {
        throw new IllegalArgumentException(section + " entry '" + name + "': tenant '" + t + "' is not a caller id"
            + " (1-128 of [A-Za-z0-9_.:@+-]) nor \"*\"");
      }
    }
  }

  private static void checkResourceId(String section, String name, String resourceId) {
    if (resourceId != null && !Ids.valid(resourceId)) {
      throw new IllegalArgumentException(section + " entry '" + name + "': 'resourceId' must be 1-128 of"
          + " [A-Za-z0-9_.:@+-]");
    }
  }

  /** Adds an API token; {@code tokenHash} comes from {@link PasswordHash#hashToken(String)}. */
  public HttpOptions token(String name, Role role, String tokenHash) {
    return token(name, role, tokenHash, null);
  }

  /** Adds an API token whose sessions belong to {@code resourceId} (null: to the token's name). */
  public HttpOptions token(String name, Role role, String tokenHash, String resourceId) {
    return token(name, role, tokenHash, resourceId, null);
  }

  /**
   * Adds an API token whose sessions belong to {@code resourceId} (null: to the token's name) and
   * which sees the sessions of its own caller id and of {@code tenants} (null: its own only;
   * {@code ["*"]}: every session).
   */
  public HttpOptions token(String name, Role role, String tokenHash, String resourceId, List<String> tenants) {
    if (name == null || name.isBlank() || tokenHash == null || !tokenHash.matches("[0-9a-fA-F]{64}")) {
      throw new IllegalArgumentException("http.tokens entries need 'name' and 'tokenHash' (hex SHA-256)");
    }
    checkResourceId("http.tokens", name, resourceId);
    checkTenants("http.tokens", name, tenants);
    tokens.add(new Token(name, role, tokenHash.toLowerCase(java.util.Locale.ROOT), resourceId,
        tenants == null ? null : List.copyOf(tenants)));
    return this;
  }

  /**
   * Four-eyes approvals: when on, nobody may decide a write in a session they created themselves
   * (over HTTP, under their user or token name). Off by default.
   */
  public HttpOptions fourEyes(boolean fourEyes) {
    this.fourEyes = fourEyes;
    return this;
  }

  public int port() {
    return port;
  }

  public String host() {
    return host;
  }

  public long bodyLimitBytes() {
    return bodyLimitBytes;
  }

  public long preAuthBodyLimitBytes() {
    return preAuthBodyLimitBytes;
  }

  public SessionStore sessionStore() {
    return sessionStore;
  }

  public int loginFreeFailures() {
    return loginFreeFailures;
  }

  public int loginAddressFreeFailures() {
    return loginAddressFreeFailures;
  }

  public long loginLockoutMillis() {
    return loginLockoutMillis;
  }

  public long loginMaxLockoutMillis() {
    return loginMaxLockoutMillis;
  }

  public boolean secureCookies() {
    return secureCookies;
  }

  public long sessionTimeoutMillis() {
    return sessionTimeoutMillis;
  }

  public long mcpProgressMillis() {
    return mcpProgressMillis;
  }

  public boolean fourEyes() {
    return fourEyes;
  }

  public List<User> users() {
    return List.copyOf(users);
  }

  public List<Token> tokens() {
    return List.copyOf(tokens);
  }
}

package dev.ratchet.connectors;

import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A configured instance of a connector, such as {@code support-slack}: its connector id,
 * configuration (base URL and the like) and credentials. Credentials are {@link Secret}s that are
 * re-read from their origin at every use, so rotating one needs no restart.
 */
public final class Connection {

  private final String name;
  private final String connectorId;
  private final JsonObject config;
  private final Map<String, Secret> credentials;
  private final Supplier<Optional<Instant>> expiresAt;
  private final String origin;

  private Connection(String name, String connectorId, JsonObject config, Map<String, Secret> credentials,
                     Supplier<Optional<Instant>> expiresAt, String origin) {
    this.name = Objects.requireNonNull(name, "name");
    this.connectorId = Objects.requireNonNull(connectorId, "connectorId");
    this.config = config == null ? new JsonObject() : config.copy();
    this.credentials = Map.copyOf(credentials);
    this.expiresAt = expiresAt == null ? Optional::empty : expiresAt;
    this.origin = origin == null ? "code" : origin;
  }

  /** A connection built in code, for example in tests or by an application with its own secret store. */
  public static Connection of(String name, String connectorId, JsonObject config, Map<String, Secret> credentials) {
    return new Connection(name, connectorId, config, credentials, null, null);
  }

  /**
   * For connection loaders: {@code expiresAt} is asked again before every use so that a rotated
   * credential with a new expiry takes effect without a restart; {@code origin} says where the
   * connection was configured, for messages.
   */
  public static Connection create(String name, String connectorId, JsonObject config, Map<String, Secret> credentials,
                                  Supplier<Optional<Instant>> expiresAt, String origin) {
    return new Connection(name, connectorId, config, credentials, expiresAt, origin);
  }

  public String name() {
    return name;
  }

  public String connectorId() {
    return connectorId;
  }

  /** A copy of the non-secret configuration. */
  public JsonObject config() {
    return config.copy();
  }

  public String configString(String key, String defaultValue) {
    Object value = config.getValue(key);
    return value == null ? defaultValue : String.valueOf(value);
  }

  /** A whole-number setting, given as a number or as text (as environment variables give it). */
  public int configInt(String key, int defaultValue, int min, int max) {
    Object value = config.getValue(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      int n = value instanceof Number num && num.doubleValue() == num.intValue() ? num.intValue()
          : Integer.parseInt(String.valueOf(value).trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConnectionsException("connection '" + name + "' (" + origin + "): field 'config." + key
        + "' must be a whole number from " + min + " to " + max + " (found '" + value + "')");
  }

  public String origin() {
    return origin;
  }

  public Set<String> credentialNames() {
    return credentials.keySet();
  }

  public boolean hasCredential(String credential) {
    return credentials.containsKey(credential);
  }

  /** The named credential; fails when the connection has none by that name (a configuration error). */
  public Secret credential(String credential) {
    Secret secret = credentials.get(credential);
    if (secret == null) {
      throw new ConnectionsException("connection '" + name + "' (" + origin + ") has no credential '" + credential + "'");
    }
    return secret;
  }

  /**
   * The current value of a credential, refused before anything is sent when it is missing or
   * expired. May read a file: call it off the event loop.
   */
  public String revealCredential(String credential) {
    Optional<Instant> expiry;
    try {
      expiry = expiresAt.get();
    } catch (RuntimeException e) {
      throw new ToolNotSentException("credentials of connection '" + name + "' could not be read");
    }
    if (expiry.isPresent() && !Instant.now().isBefore(expiry.get())) {
      throw new ToolNotSentException("credentials of connection '" + name + "' expired at " + expiry.get());
    }
    Secret secret = credentials.get(credential);
    if (secret == null) {
      throw new ToolNotSentException("connection '" + name + "' has no credential '" + credential + "'");
    }
    try {
      return secret.reveal();
    } catch (ToolNotSentException e) {
      throw new ToolNotSentException("credential '" + credential + "' of connection '" + name + "': " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "Connection[" + name + ", connector=" + connectorId + ", config=" + config.encode()
        + ", credentials=" + credentials.keySet() + "=***, origin=" + origin + "]";
  }
}

package dev.ratchet.connectors;

import dev.ratchet.connectors.impl.ConnectionsFile;
import dev.ratchet.connectors.impl.EnvironmentConnections;
import dev.ratchet.connectors.impl.Names;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The connections an application may use. Locally they come from the JSON file named by
 * {@code RATCHET_CONNECTIONS_FILE} (default {@code conf/connections.json}); when deployed, from
 * {@code RATCHET_CONNECTION_<NAME>_<FIELD>} variables. One connection may not be configured both
 * ways. Loading reads files and belongs to start-up, not to an event loop.
 */
public final class Connections {

  public static final String FILE_VARIABLE = "RATCHET_CONNECTIONS_FILE";
  public static final String DEFAULT_FILE = "conf/connections.json";

  private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

  private final Map<String, Connection> byKey;

  private Connections(Map<String, Connection> byKey) {
    this.byKey = byKey;
  }

  /** Loads from the process environment. */
  public static Connections load() {
    return load(System.getenv());
  }

  /**
   * Loads from the given environment. Fails when the file is a symlink, not a regular file,
   * readable by others than its owner, or invalid; a missing file only means no connections from it.
   */
  public static Connections load(Map<String, String> environment) {
    Path file = Path.of(environment.getOrDefault(FILE_VARIABLE, DEFAULT_FILE));
    List<Connection> fromFile = List.of();
    List<Connection> fromEnv = EnvironmentConnections.load(environment);
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      fromFile = ConnectionsFile.load(file.toAbsolutePath());
    } else if (fromEnv.isEmpty()) {
      LOG.info("No connections file at {} (set {} to use another) and no RATCHET_CONNECTION_* variables;"
          + " agents get no connector tools", file.toAbsolutePath(), FILE_VARIABLE);
    } else {
      LOG.info("Connections from RATCHET_CONNECTION_* variables: {} (no connections file at {})",
          fromEnv.stream().map(Connection::name).toList(), file.toAbsolutePath());
    }
    Map<String, Connection> all = new LinkedHashMap<>();
    for (Connection c : fromFile) {
      all.put(Names.connectionKey(c.name()), c);
    }
    for (Connection c : fromEnv) {
      Connection other = all.put(Names.connectionKey(c.name()), c);
      if (other != null) {
        throw new ConnectionsException("connection '" + other.name() + "' is configured both in " + other.origin()
            + " and by " + c.origin() + "; configure each connection in one place only");
      }
    }
    return new Connections(all);
  }

  public static Connections of(Connection... connections) {
    Map<String, Connection> all = new LinkedHashMap<>();
    for (Connection c : connections) {
      if (all.put(Names.connectionKey(c.name()), c) != null) {
        throw new ConnectionsException("connection '" + c.name() + "' is given twice");
      }
    }
    return new Connections(all);
  }

  /** The named connection, if configured ({@code support-slack} also matches {@code SUPPORT_SLACK}). */
  public Optional<Connection> find(String name) {
    return Optional.ofNullable(byKey.get(Names.connectionKey(name)));
  }

  /** The named connection; fails naming the configured ones when there is none. */
  public Connection connection(String name) {
    return find(name).orElseThrow(() -> new ConnectionsException("no connection named '" + name
        + "' is configured (configured: " + (byKey.isEmpty() ? "none" : String.join(", ", names())) + ")"));
  }

  public Collection<Connection> all() {
    return List.copyOf(byKey.values());
  }

  public List<String> names() {
    List<String> names = new ArrayList<>();
    byKey.values().forEach(c -> names.add(c.name()));
    return names;
  }

  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  @Override
  public String toString() {
    return "Connections" + names();
  }
}

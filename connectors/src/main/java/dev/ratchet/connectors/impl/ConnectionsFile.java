package dev.ratchet.connectors.impl;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a local connections file. The file is checked (regular file, not a symlink, mode 0600 or
 * stricter) every time it is read, including when a credential is re-read before a provider call.
 */
public final class ConnectionsFile {

  private static final Set<String> CONNECTION_FIELDS = Set.of("connector", "config", "credentials", "expiresAt",
      "$comment");

  private ConnectionsFile() {
  }

  public static List<Connection> load(Path file) {
    JsonObject connections = read(file);
    List<Connection> result = new ArrayList<>();
    for (String name : connections.fieldNames()) {
      JsonObject entry = connections.getJsonObject(name);
      String origin = "connections file " + file;
      Map<String, Secret> credentials = new LinkedHashMap<>();
      for (String credential : entry.getJsonObject("credentials", new JsonObject()).fieldNames()) {
        credentials.put(credential, Secret.from(() -> reread(file, name).getJsonObject("credentials",
            new JsonObject()).getString(credential)));
      }
      // known to the redactor from the start, not only from their first use
      credentials.values().forEach(Redaction::remember);
      result.add(Connection.create(name, entry.getString("connector"), entry.getJsonObject("config"), credentials,
          () -> expiresAt(reread(file, name), file, name), origin));
    }
    return result;
  }

  private static JsonObject reread(Path file, String name) {
    JsonObject entry = read(file).getJsonObject(name);
    if (entry == null) {
      throw new IllegalStateException("connection no longer in file");
    }
    return entry;
  }

  /** The validated {@code connections} object of the file. */
  static JsonObject read(Path file) {
    checkFile(file);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConnectionsException("connections file " + file + " cannot be read (" + e.getClass().getSimpleName()
          + ")");
    }
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      // the parser's message may quote file content, and the file holds secrets
      throw new ConnectionsException("connections file " + file + " is not a valid JSON object");
    }
    for (String field : json.fieldNames()) {
      if (!field.equals("connections") && !field.equals("$comment")) {
        throw new ConnectionsException("connections file " + file + ": unknown field '" + field
            + "' (expected 'connections')");
      }
    }
    if (!(json.getValue("connections") instanceof JsonObject connections)) {
      throw new ConnectionsException("connections file " + file + ": field 'connections' is missing or not an object");
    }
    for (String name : connections.fieldNames()) {
      validate(file, name, connections.getValue(name));
    }
    return connections;
  }

  private static void validate(Path file, String name, Object value) {
    String where = "connections file " + file + ": connection '" + name + "'";
    if (!name.matches("[a-z][a-z0-9-]{0,62}")) {
      throw new ConnectionsException(where + ": the name must be lower-case letters, digits and '-'");
    }
    if (!(value instanceof JsonObject entry)) {
      throw new ConnectionsException(where + ": must be an object");
    }
    for (String field : entry.fieldNames()) {
      if (!CONNECTION_FIELDS.contains(field)) {
        throw new ConnectionsException(where + ": unknown field '" + field
            + "' (expected connector, config, credentials, expiresAt)");
      }
    }
    if (!(entry.getValue("connector") instanceof String connector) || connector.isBlank()) {
      throw new ConnectionsException(where + ": field 'connector' is missing or not a string");
    }
    Object config = entry.getValue("config");
    if (config != null && !(config instanceof JsonObject)) {
      throw new ConnectionsException(where + ": field 'config' must be an object");
    }
    Object credentials = entry.getValue("credentials");
    if (credentials != null) {
      if (!(credentials instanceof JsonObject creds)) {
        throw new ConnectionsException(where + ": field 'credentials' must be an object");
      }
      for (String credential : creds.fieldNames()) {
        if (!(creds.getValue(credential) instanceof String s) || s.isEmpty()) {
          throw new ConnectionsException(where + ": field 'credentials." + credential
              + "' must be a non-empty string");
        }
      }
    }
    expiresAt(entry, file, name);
  }

  private static Optional<Instant> expiresAt(JsonObject entry, Path file, String name) {
    Object value = entry.getValue("expiresAt");
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(String.valueOf(value)));
    } catch (DateTimeParseException e) {
      throw new ConnectionsException("connections file " + file + ": connection '" + name
          + "': field 'expiresAt' must be an ISO-8601 instant such as 2027-01-31T00:00:00Z");
    }
  }

  private static void checkFile(Path file) {
    if (Files.isSymbolicLink(file)) {
      throw new ConnectionsException("connections file " + file + " is a symbolic link; it must be a regular file");
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new ConnectionsException("connections file " + file + " is not a regular file");
    }
    Set<PosixFilePermission> perms;
    try {
      perms = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).permissions();
    } catch (UnsupportedOperationException e) {
      throw new ConnectionsException("connections file " + file + ": the file system cannot show whether the file"
          + " is readable by its owner only; keep connections in environment variables instead");
    } catch (IOException e) {
      throw new ConnectionsException("connections file " + file + " cannot be read (" + e.getClass().getSimpleName()
          + ")");
    }
    for (PosixFilePermission p : perms) {
      if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE) {
        throw new ConnectionsException("connections file " + file + " has mode " + PosixFilePermissions.toString(perms)
            + " (" + octal(perms) + "); it holds credentials and must be readable by its owner only (chmod 600)");
      }
    }
    if (!perms.contains(PosixFilePermission.OWNER_READ)) {
      throw new ConnectionsException("connections file " + file + " is not readable by its owner (chmod 600)");
    }
  }

  private static String octal(Set<PosixFilePermission> perms) {
    int mode = 0;
    for (PosixFilePermission p : perms) {
      mode |= 1 << (8 - p.ordinal());
    }
    return String.format("0%03o", mode);
  }
}

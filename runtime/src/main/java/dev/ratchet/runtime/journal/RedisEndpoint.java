package dev.ratchet.runtime.journal;

import io.vertx.core.net.SocketAddress;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where one Redis server is and how to log in, read from a Redis URL as the Vert.x Redis client
 * reads it: {@code redis://[user[:password]@]host[:port][/db]}, {@code rediss://} for TLS,
 * {@code unix://[[user]:password@]/path/to/socket}, each with optional {@code ?db=}, {@code ?user=}
 * and {@code ?password=}. Its {@link #toString} never shows the password.
 */
record RedisEndpoint(SocketAddress address, boolean tls, String user, String password, int db) {

  static final int DEFAULT_PORT = 6379;

  /** The endpoint of {@code url}; fails with a message that shows the URL without its password. */
  static RedisEndpoint parse(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (java.net.URISyntaxException | NullPointerException e) {
      throw invalid(url, "not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    String user = null;
    String password = null;
    String info = uri.getRawUserInfo();
    if (info != null) {
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? null : decode(info.substring(colon + 1));
    }
    int db = 0;
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    SocketAddress address;
    switch (scheme) {
      case "redis", "rediss": {
        String host = uri.getHost() == null ? "localhost" : uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
          host = host.substring(1, host.length() - 1);
        }
        address = SocketAddress.inetSocketAddress(uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), host);
        if (path.length() > 1) {
          db = database(url, path.substring(1));
        }
        break;
      }
      case "unix":
        if (path.isEmpty()) {
          throw invalid(url, "no socket path");
        }
        address = SocketAddress.domainSocketAddress(decode(path));
        break;
      default:
        throw invalid(url, "the scheme is not redis, rediss or unix");
    }
    String query = uri.getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        switch (name) {
          case "db", "select" -> db = database(url, value);
          case "user" -> user = value;
          case "password" -> password = value;
          default -> {
            // other parameters (the client's pool settings) mean nothing to one connection
          }
        }
      }
    }
    if (user != null && user.isEmpty()) {
      user = null;
    }
    if (password != null && password.isEmpty()) {
      password = null;
    }
    return new RedisEndpoint(address, "rediss".equals(scheme), user, password, db);
  }

  /** Whether a login is due: Redis's {@code AUTH} needs a password, the user is optional. */
  boolean authenticates() {
    return password != null;
  }

  private static int database(String url, String text) {
    try {
      int db = Integer.parseInt(text);
      if (db < 0) {
        throw invalid(url, "a negative database number");
      }
      return db;
    } catch (NumberFormatException e) {
      throw invalid(url, "the database is not a number");
    }
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException invalid(String url, String why) {
    return new IllegalArgumentException("invalid Redis URL " + RedisConnections.redactUrl(url) + ": " + why);
  }

  @Override
  public String toString() {
    String where = address.isInetSocket() ? (tls ? "rediss://" : "redis://") + address.host() + ":" + address.port()
        : "unix://" + address.path();
    return where + (db == 0 ? "" : "/" + db) + (user == null ? "" : " as " + user);
  }
}

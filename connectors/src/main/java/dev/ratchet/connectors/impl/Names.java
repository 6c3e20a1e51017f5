package dev.ratchet.connectors.impl;

import java.util.Locale;

/** Name conversions between manifests, tool names and environment variables. */
public final class Names {

  private Names() {
  }

  /** {@code postThreadReply} → {@code post_thread_reply}; {@code get-order.v2} → {@code get_order_v2}. */
  public static String snakeCase(String name) {
    String s = name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2");
    s = s.replaceAll("[^A-Za-z0-9]+", "_").replaceAll("^_+|_+$", "");
    return s.toLowerCase(Locale.ROOT);
  }

  /** {@code BASE_URL} → {@code baseUrl}. */
  public static String camelCaseFromUpperSnake(String name) {
    StringBuilder out = new StringBuilder();
    boolean upperNext = false;
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      if (c == '_') {
        upperNext = out.length() > 0;
      } else {
        out.append(upperNext ? Character.toUpperCase(c) : c);
        upperNext = false;
      }
    }
    return out.toString();
  }

  /** {@code baseUrl} → {@code BASE_URL}. */
  public static String upperSnake(String name) {
    return snakeCase(name).toUpperCase(Locale.ROOT);
  }

  /** The name connections are matched by: {@code support-slack}, {@code SUPPORT_SLACK} and {@code support_slack} are one. */
  public static String connectionKey(String name) {
    return name.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** See {@link ToolNames#toolName}. */
  public static String toolName(String connectorId, String operation) {
    return ToolNames.toolName(connectorId, operation);
  }
}

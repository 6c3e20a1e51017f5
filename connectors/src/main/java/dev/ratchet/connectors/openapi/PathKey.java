package dev.ratchet.connectors.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key of the document's {@code paths}, read as a request target. Some vendors tell two
 * operations on one path apart with a suffix: {@code /items#create} (a fragment, which is never
 * sent) or {@code /items?action=close} (a fixed query, which is always sent, before the
 * operation's own query parameters).
 *
 * @param template   the path template, {@code {name}} marking a path parameter
 * @param fixedQuery the query the key carries, percent-encoded where a query needs it; null when none
 */
record PathKey(String template, String fixedQuery) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]+)}");

  static PathKey of(String key) {
    String path = key;
    int hash = path.indexOf('#');
    if (hash >= 0) {
      path = path.substring(0, hash);
    }
    String query = null;
    int question = path.indexOf('?');
    if (question >= 0) {
      query = path.substring(question + 1);
      path = path.substring(0, question);
      query = query.isEmpty() ? null : UriEncoding.encode(query, true);
    }
    return new PathKey(path, query);
  }

  /** The names between braces in the template, in order. */
  List<String> placeholders() {
    List<String> names = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** The template's literal text percent-encoded where a path needs it; placeholders untouched. */
  String encodedTemplate() {
    StringBuilder out = new StringBuilder();
    Matcher m = PLACEHOLDER.matcher(template);
    int at = 0;
    while (m.find()) {
      out.append(literal(template.substring(at, m.start()))).append(m.group());
      at = m.end();
    }
    return out.append(literal(template.substring(at))).toString();
  }

  private static String literal(String text) {
    // reserved characters stay (they are the path's own), but '?' and '#' cannot be part of a path
    return UriEncoding.encode(text, true).replace("?", "%3F");
  }
}

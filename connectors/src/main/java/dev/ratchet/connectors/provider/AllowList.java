package dev.ratchet.connectors.provider;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which toolkits and tools of a provider the application allows. An entry matches exactly, or with
 * {@code *} standing for any run of characters: a trailing {@code *} matches by prefix
 * ({@code google*} allows {@code googledrive}, {@code GMAIL_SEND_*} allows {@code GMAIL_SEND_EMAIL}),
 * a leading one by suffix ({@code *drive}, {@code *_DELETE}), {@code *} alone matches everything.
 * Tool entries are keyed by toolkit, and a key may use {@code *} the same way; a tool is allowed
 * when an entry of any key that matches its toolkit matches it. Matching ignores case. Without
 * toolkit entries every toolkit is allowed; a toolkit that no key matches allows all of its tools.
 * Anything not allowed is neither listed nor resolvable. An empty entry would match nothing and is
 * refused when the list is built.
 */
public final class AllowList {

  private static final AllowList EVERYTHING = new AllowList(null, Map.of());

  private final List<String> toolkits;
  private final Map<String, List<String>> tools;

  private AllowList(List<String> toolkits, Map<String, List<String>> tools) {
    this.toolkits = toolkits == null ? null : toolkits.stream().map(e -> entry(e, "allowed toolkit")).toList();
    Map<String, List<String>> byToolkit = new TreeMap<>();
    tools.forEach((toolkit, patterns) -> byToolkit.put(entry(toolkit, "allowed tools key"),
        patterns.stream().map(e -> entry(e, "allowed tool of '" + toolkit + "'")).toList()));
    this.tools = byToolkit;
  }

  private static String entry(String entry, String what) {
    if (entry == null || entry.isBlank()) {
      throw new IllegalArgumentException(what + " is empty: an empty allow-list entry matches nothing");
    }
    return norm(entry);
  }

  public static AllowList everything() {
    return EVERYTHING;
  }

  /**
   * @param toolkits allowed toolkits, or null for all
   * @param tools allowed tools per toolkit; a toolkit missing here allows all its tools
   */
  public static AllowList of(List<String> toolkits, Map<String, List<String>> tools) {
    return new AllowList(toolkits, tools == null ? Map.of() : tools);
  }

  public boolean toolkitAllowed(String toolkit) {
    if (toolkits == null) {
      return true;
    }
    if (toolkit == null) {
      return false;
    }
    String t = norm(toolkit);
    return toolkits.stream().anyMatch(p -> matches(p, t));
  }

  public boolean toolAllowed(String toolkit, String slug) {
    if (!toolkitAllowed(toolkit) || slug == null) {
      return false;
    }
    String t = toolkit == null ? null : norm(toolkit);
    List<List<String>> keyed = t == null ? List.of() : tools.entrySet().stream().filter(e -> matches(e.getKey(), t))
        .map(Map.Entry::getValue).toList();
    if (keyed.isEmpty()) {
      return true;
    }
    List<String> patterns = keyed.stream().flatMap(List::stream).toList();
    String s = norm(slug);
    return patterns.stream().anyMatch(p -> matches(p, s));
  }

  /** {@code *} matches any run of characters, anywhere in the pattern; everything else matches itself. */
  static boolean matches(String pattern, String value) {
    if (pattern.indexOf('*') < 0) {
      return pattern.equals(value);
    }
    String[] parts = pattern.split("\\*", -1);
    if (!value.startsWith(parts[0])) {
      return false;
    }
    int at = parts[0].length();
    for (int i = 1; i < parts.length - 1; i++) {
      int found = value.indexOf(parts[i], at);
      if (found < 0) {
        return false;
      }
      at = found + parts[i].length();
    }
    String last = parts[parts.length - 1];
    return value.length() - last.length() >= at && value.endsWith(last);
  }

  private static String norm(String s) {
    return s.trim().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return "AllowList{toolkits=" + (toolkits == null ? "*" : toolkits) + ", tools=" + tools + "}";
  }
}

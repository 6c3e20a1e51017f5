package dev.ratchet.connectors.provider;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which toolkits and tools of a provider the application allows. Toolkit entries match exactly or,
 * with a trailing {@code *}, by prefix ({@code google*} allows {@code googledrive}); tool entries
 * per toolkit work the same way ({@code GMAIL_SEND_*}). Matching ignores case. Without toolkit
 * entries every toolkit is allowed; a toolkit without tool entries allows all of its tools.
 * Anything not allowed is neither listed nor resolvable.
 */
public final class AllowList {

  private static final AllowList EVERYTHING = new AllowList(null, Map.of());

  private final List<String> toolkits;
  private final Map<String, List<String>> tools;

  private AllowList(List<String> toolkits, Map<String, List<String>> tools) {
    this.toolkits = toolkits == null ? null : toolkits.stream().map(AllowList::norm).toList();
    Map<String, List<String>> byToolkit = new TreeMap<>();
    tools.forEach((toolkit, patterns) -> byToolkit.put(norm(toolkit), patterns.stream().map(AllowList::norm).toList()));
    this.tools = byToolkit;
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
    List<String> patterns = toolkit == null ? null : tools.get(norm(toolkit));
    if (patterns == null) {
      return true;
    }
    String s = norm(slug);
    return patterns.stream().anyMatch(p -> matches(p, s));
  }

  private static boolean matches(String pattern, String value) {
    return pattern.endsWith("*") ? value.startsWith(pattern.substring(0, pattern.length() - 1)) : pattern.equals(value);
  }

  private static String norm(String s) {
    return s.trim().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return "AllowList{toolkits=" + (toolkits == null ? "*" : toolkits) + ", tools=" + tools + "}";
  }
}

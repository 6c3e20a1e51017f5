package dev.ratchet.server.config.impl;

import dev.ratchet.server.config.AgentFileError.Kind;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Which operations of a connector an entry offers: {@code operations} is {@code all} or a list of
 * operation ids, globs over them ({@code *} any characters, {@code ?} one) and tags
 * ({@code tag:Issues}); {@code exclude} takes the same and removes. A name that matches nothing
 * is a problem, with the near matches of an unknown id.
 */
final class OperationSelection {

  private static final String TAG = "tag:";

  private OperationSelection() {
  }

  /** What an entry selects; {@code named} are the ids its list names exactly (a refused one is a problem). */
  record Selected(List<String> ids, Set<String> named) {
  }

  static Selected select(JsonObject entry, String at, String where, List<String> known,
                         Function<String, List<String>> tags, Findings findings) {
    Set<String> chosen = new LinkedHashSet<>();
    Set<String> named = new LinkedHashSet<>();
    Object operations = entry.getValue("operations");
    if ("all".equals(operations)) {
      chosen.addAll(known);
    } else if (operations instanceof JsonArray list) {
      for (int j = 0; j < list.size(); j++) {
        String item = String.valueOf(list.getValue(j));
        List<String> matched = matches(item, known, tags, at + "/operations/" + j, where, findings);
        chosen.addAll(matched);
        if (!isPattern(item)) {
          named.addAll(matched);
        }
      }
    }
    if (entry.getValue("exclude") instanceof JsonArray exclude) {
      for (int j = 0; j < exclude.size(); j++) {
        List<String> matched = matches(String.valueOf(exclude.getValue(j)), known, tags, at + "/exclude/" + j, where,
            findings);
        matched.forEach(chosen::remove);
        matched.forEach(named::remove);
      }
    }
    return new Selected(new ArrayList<>(chosen), named);
  }

  private static boolean isPattern(String item) {
    return item.startsWith(TAG) || item.contains("*") || item.contains("?");
  }

  private static List<String> matches(String item, List<String> known, Function<String, List<String>> tags,
                                      String pointer, String where, Findings findings) {
    if (item.startsWith(TAG)) {
      String tag = item.substring(TAG.length());
      List<String> found = known.stream().filter(id -> tags.apply(id).contains(tag)).toList();
      if (found.isEmpty()) {
        List<String> allTags = known.stream().flatMap(id -> tags.apply(id).stream()).distinct().toList();
        findings.error(Kind.REFERENCE, pointer, "no operation of " + where + " has the tag '" + tag + "'"
            + NearMatches.hint(tag, allTags));
      }
      return found;
    }
    if (item.contains("*") || item.contains("?")) {
      Pattern glob = glob(item);
      List<String> found = known.stream().filter(id -> glob.matcher(id).matches()).toList();
      if (found.isEmpty()) {
        findings.error(Kind.REFERENCE, pointer, "'" + item + "' matches no operation of " + where);
      }
      return found;
    }
    if (!known.contains(item)) {
      findings.error(Kind.REFERENCE, pointer, "unknown operation '" + item + "' in " + where
          + NearMatches.hint(item, known));
      return List.of();
    }
    return List.of(item);
  }

  private static Pattern glob(String glob) {
    StringBuilder regex = new StringBuilder();
    for (char c : glob.toCharArray()) {
      regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
    }
    return Pattern.compile(regex.toString());
  }
}

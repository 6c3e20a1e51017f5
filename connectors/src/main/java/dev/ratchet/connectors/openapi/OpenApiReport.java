package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.impl.ToolNames;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a document offers: how many of its operations become tools, and why the others do not,
 * counted by reason (a problem's message with its names left out, so that one construct is one
 * reason). This is what {@code ratchet check --report} prints for each document.
 *
 * @param refused operations refused, by reason; an operation with two problems counts under both
 * @param notices findings that leave their operation offered (a large input schema, ignored
 *                callbacks), by reason
 */
public record OpenApiReport(String origin, String title, String version, int operations, int offered,
                            Map<String, Integer> refused, Map<String, Integer> notices) {

  public static OpenApiReport of(OpenApiDocument document) {
    Map<String, Integer> refused = new LinkedHashMap<>();
    Map<String, Integer> notices = new LinkedHashMap<>();
    int offered = 0;
    for (OpenApiOperationSpec spec : document.operations().values()) {
      Set<String> reasons = new LinkedHashSet<>();
      spec.problems().forEach(p -> reasons.add(reason(p.message())));
      if (!spec.definition().agent().exposed()) {
        reasons.add("x-ratchet-agent.exposed is false");
      }
      String tool = ToolNames.toolName(document.manifest().connectorId(), spec.operationId());
      if (!ToolNames.valid(tool)) {
        reasons.add("no valid tool name");
      }
      reasons.forEach(r -> refused.merge(r, 1, Integer::sum));
      offered += reasons.isEmpty() ? 1 : 0;
    }
    int operations = document.operations().size();
    for (OpenApiWarning w : document.warnings()) {
      if (w.offered()) {
        notices.merge(reason(w.message()), 1, Integer::sum);
      } else if (w.operationId() == null) {
        // an operation that could not even be read (its $ref leads nowhere) is refused too
        refused.merge(reason(w.message()), 1, Integer::sum);
        operations++;
      }
    }
    return new OpenApiReport(document.origin(), document.manifest().description(), document.manifest().version(),
        operations, offered, sorted(refused), sorted(notices));
  }

  public int refusedCount() {
    return operations - offered;
  }

  /** The report as lines of text: a heading, then one line per reason. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(origin + " (" + (title == null ? "untitled" : title) + " " + version + "): " + operations
        + " operation(s), " + offered + " offered, " + refusedCount() + " refused");
    refused.forEach((reason, n) -> lines.add("  refused " + n + ": " + reason));
    notices.forEach((reason, n) -> lines.add("  note " + n + ": " + reason));
    return lines;
  }

  /** A message with what is quoted in it left out: {@code parameter '…' uses a style ...}. */
  static String reason(String message) {
    // sizes and counts differ from one operation to the next; a version such as 2020-12 does not
    String general = message.replaceAll("'[^']*'", "'…'").replaceAll("(?<![-0-9])\\b[0-9]+\\b(?!-[0-9])", "N");
    int cut = general.indexOf(" (");
    return cut > 0 ? general.substring(0, cut) : general;
  }

  private static Map<String, Integer> sorted(Map<String, Integer> counts) {
    Map<String, Integer> out = new LinkedHashMap<>();
    counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey())).forEach(e -> out.put(e.getKey(), e.getValue()));
    return Collections.unmodifiableMap(out);
  }
}

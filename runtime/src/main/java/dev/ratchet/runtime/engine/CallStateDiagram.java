package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallStatus;

/**
 * Renders {@link CallTransitions} as the Mermaid {@code stateDiagram-v2} and the markdown table of
 * docs/ARCHITECTURE.md, between the markers {@link #BEGIN} and {@link #END}.
 */
public final class CallStateDiagram {

  public static final String BEGIN = "<!-- call-states:begin (rendered from CallTransitions by CallStateDiagramTest) -->";
  public static final String END = "<!-- call-states:end -->";

  private CallStateDiagram() {
  }

  /** The markdown between the markers: the table, then the diagram. */
  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append("| from | event | to | journal step |\n|---|---|---|---|\n");
    for (CallTransitions.Transition t : CallTransitions.rows()) {
      out.append("| ").append(t.event() == CallEvent.SUBMITTED ? "(none)" : t.from().wireName())
          .append(" | ").append(t.event().label())
          .append(" | ").append(t.to().wireName())
          .append(" | `").append(t.step().wireName()).append("` |\n");
    }
    out.append("\n```mermaid\nstateDiagram-v2\n");
    for (CallTransitions.Transition t : CallTransitions.rows()) {
      String from = t.event() == CallEvent.SUBMITTED ? "[*]" : t.from().wireName();
      out.append("  ").append(from).append(" --> ").append(t.to().wireName()).append(": ")
          .append(t.event().label()).append(" (").append(t.step().wireName()).append(")\n");
    }
    out.append("  ").append(CallStatus.DONE.wireName()).append(" --> [*]\n");
    out.append("```\n");
    return out.toString();
  }
}

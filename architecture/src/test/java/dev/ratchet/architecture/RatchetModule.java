package dev.ratchet.architecture;

import com.tngtech.archunit.core.domain.JavaClass;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The Maven modules and the root package of each, with the modules each may use: the layering of
 * docs/ARCHITECTURE.md ("Modules"). Library modules come first; an application depends on them
 * and never on what follows them.
 */
enum RatchetModule {

  HOST("dev.ratchet.host"),
  EMBEDDED_REDIS("dev.ratchet.embedded", HOST),
  RUNTIME("dev.ratchet.runtime", HOST),
  CONNECTORS("dev.ratchet.connectors", HOST, RUNTIME),
  LANGCHAIN4J_MODEL("dev.ratchet.model.langchain4j", RUNTIME),
  VERTICLES("dev.ratchet.verticles", HOST, RUNTIME, CONNECTORS),
  TESTING("dev.ratchet.testing", HOST, EMBEDDED_REDIS, RUNTIME, VERTICLES),
  SERVER("dev.ratchet.server", HOST, EMBEDDED_REDIS, RUNTIME, CONNECTORS, LANGCHAIN4J_MODEL, VERTICLES),
  // RatchetTurns.embedded takes the facade; the rest of ratchet-turns is an HTTP client
  TURNS("dev.ratchet.turns", RUNTIME, VERTICLES),
  OPENAI("dev.ratchet.openai", RUNTIME, TURNS),
  ANTHROPIC("dev.ratchet.anthropic", RUNTIME, TURNS),
  LANGCHAIN4J("dev.ratchet.langchain4j", RUNTIME, TURNS, LANGCHAIN4J_MODEL),
  SPRING_AI("dev.ratchet.springai", RUNTIME, TURNS);

  /** The modules an application embeds: none of them uses the server, the test kit or an adapter. */
  static final Set<RatchetModule> LIBRARIES = EnumSet.of(HOST, EMBEDDED_REDIS, RUNTIME, CONNECTORS,
      LANGCHAIN4J_MODEL, VERTICLES);

  private final String root;
  private final Set<RatchetModule> uses;

  RatchetModule(String root, RatchetModule... uses) {
    this.root = root;
    this.uses = Set.of(uses);
  }

  String root() {
    return root;
  }

  /** Whether this module may use {@code other}'s public types (its own always). */
  boolean mayUse(RatchetModule other) {
    return other == this || uses.contains(other);
  }

  /** The module a class belongs to; empty for classes of other projects. */
  static Optional<RatchetModule> of(JavaClass c) {
    RatchetModule found = null;
    for (RatchetModule m : values()) {
      boolean inside = c.getPackageName().equals(m.root) || c.getPackageName().startsWith(m.root + ".");
      if (inside && (found == null || m.root.length() > found.root.length())) {
        found = m;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Whether {@code c} is implementation: in an {@code impl} or {@code internal} package of its module. */
  static boolean isImplementation(JavaClass c) {
    String pkg = "." + c.getPackageName() + ".";
    return pkg.contains(".impl.") || pkg.contains(".internal.");
  }
}

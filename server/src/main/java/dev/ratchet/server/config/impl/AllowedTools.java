package dev.ratchet.server.config.impl;

import dev.ratchet.runtime.SourceHealth;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.regex.Pattern;

/** Only the tools of a source whose names match an allow-list ({@code read_*}, {@code write_file}). */
public final class AllowedTools implements ToolSource {

  private final ToolSource source;
  private final List<String> patterns;

  public AllowedTools(ToolSource source, List<String> patterns) {
    this.source = source;
    this.patterns = List.copyOf(patterns);
  }

  /** Whether {@code name} matches {@code pattern}, where {@code *} stands for any characters. */
  public static boolean matches(String pattern, String name) {
    List<String> parts = new java.util.ArrayList<>();
    for (String part : pattern.split("\\*", -1)) {
      parts.add(Pattern.quote(part));
    }
    return name.matches(String.join(".*", parts));
  }

  public boolean allows(String name) {
    return patterns.stream().anyMatch(p -> matches(p, name));
  }

  @Override
  public String name() {
    return source.name();
  }

  @Override
  public Future<List<Tool>> tools(Vertx vertx) {
    return source.tools(vertx).map(tools -> tools.stream().filter(t -> allows(t.name())).toList());
  }

  @Override
  public Future<SourceHealth> sourceHealth() {
    return source.sourceHealth();
  }
}

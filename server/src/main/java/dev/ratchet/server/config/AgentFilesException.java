package dev.ratchet.server.config;

import java.util.List;

/** Agent files that cannot be served, with every problem found; nothing of them was applied. */
public final class AgentFilesException extends RuntimeException {

  private final List<AgentFileError> errors;

  public AgentFilesException(List<AgentFileError> errors) {
    super(errors.size() + " problem(s) in agent files:\n" + String.join("\n", errors.stream().map(String::valueOf).toList()));
    this.errors = List.copyOf(errors);
  }

  public List<AgentFileError> errors() {
    return errors;
  }
}

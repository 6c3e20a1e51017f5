package dev.ratchet.server.config;

/**
 * One problem of an agent file: where it is (file, line, field) and what is wrong, printed as
 * {@code conf/agents/shop.yaml:7: tools[0].operations[2]: unknown operation 'refundOrdr' ...}.
 *
 * @param file the file as it was named
 * @param line the 1-based line, or 0 when the problem is the file's as a whole
 * @param field the field as a path ({@code tools[0].approval.refundOrder}), empty for the file
 * @param message what is wrong, never a secret's value
 */
public record AgentFileError(String file, int line, String field, String message) {

  @Override
  public String toString() {
    return file + (line > 0 ? ":" + line : "") + ": " + (field.isEmpty() ? "" : field + ": ") + message;
  }
}

package dev.ratchet.server.config;

/**
 * One problem of an agent file: where it is (file, line, field) and what is wrong, printed as
 * {@code conf/agents/shop.yaml:7: tools[0].operations[2]: unknown operation 'refundOrdr' ...}.
 * The same shape carries a warning, which loads all the same.
 *
 * @param file the file as it was named
 * @param line the 1-based line, or 0 when the problem is the file's as a whole
 * @param field the field as a path ({@code tools[0].approval.refundOrder}), empty for the file
 * @param message what is wrong, never a secret's value
 * @param kind what sort of problem it is, for grouping: see {@link Kind}
 */
public record AgentFileError(String file, int line, String field, String message, String kind) {

  /** The kinds of problems, in the order {@code ratchet check} groups them. */
  public static final class Kind {
    public static final String SYNTAX = "not readable";
    public static final String SCHEMA = "not valid against the agent-file schema";
    public static final String REFERENCE = "names what does not exist";
    public static final String OPERATION = "operations that cannot be offered";
    public static final String SOURCE = "tool sources that did not start";
    public static final String OTHER = "other problems";
    public static final String WARNING = "warnings";

    private Kind() {
    }
  }

  /** A problem of the kind {@link Kind#OTHER}. */
  public AgentFileError(String file, int line, String field, String message) {
    this(file, line, field, message, Kind.OTHER);
  }

  @Override
  public String toString() {
    return file + (line > 0 ? ":" + line : "") + ": " + (field.isEmpty() ? "" : field + ": ") + message;
  }
}

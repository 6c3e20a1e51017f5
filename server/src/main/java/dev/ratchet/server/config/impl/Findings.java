package dev.ratchet.server.config.impl;

/** Where the parts of one agent file's resolution report what they find, by JSON pointer into the file. */
interface Findings {

  /** A problem of {@code kind} ({@link dev.ratchet.server.config.AgentFileError.Kind}): the file does not load. */
  void error(String kind, String pointer, String message);

  /** How many problems were reported so far. */
  int errorCount();

  /** Worth knowing, and the file loads all the same. */
  void warning(String pointer, String message);
}

package dev.ratchet.server.config.impl;

import dev.ratchet.runtime.ToolCatalog;

import java.nio.charset.StandardCharsets;

/**
 * Warns about an agent whose catalogue is larger than models take well: more tools than common
 * model APIs accept in one request (128, OpenAI's limit), or more than {@link #LARGE_BYTES} of
 * tool names, descriptions and input schemas, which are sent to the model with every turn.
 */
final class CatalogueSize {

  /** Common model APIs accept at most this many tools in one request. */
  static final int MAX_TOOLS = 128;
  /** About 50,000 tokens: a quarter of a 200,000-token context window, spent before the conversation starts. */
  static final int LARGE_BYTES = 200_000;

  private CatalogueSize() {
  }

  static void check(ToolCatalog catalog, Findings findings) {
    int tools = catalog.entries().size();
    if (tools > MAX_TOOLS) {
      findings.warning("/tools", "agent '" + catalog.agent() + "' offers " + tools + " tools; common model APIs"
          + " accept at most " + MAX_TOOLS + " in one request (select fewer with operations, exclude or tags)");
    }
    long bytes = 0;
    for (ToolCatalog.Entry e : catalog.entries()) {
      bytes += e.tool().name().length() + e.tool().description().getBytes(StandardCharsets.UTF_8).length
          + e.tool().inputSchema().encode().getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > LARGE_BYTES) {
      findings.warning("/tools", "agent '" + catalog.agent() + "' has a catalogue of " + bytes / 1000 + " KB (tool"
          + " names, descriptions and input schemas), over " + LARGE_BYTES / 1000 + " KB: the model is sent all of it"
          + " with every turn");
    }
  }
}

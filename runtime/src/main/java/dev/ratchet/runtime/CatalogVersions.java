package dev.ratchet.runtime;

/**
 * The catalogues of one agent that a session validates turns against: the current one for new
 * turns, and earlier versions for turns journaled against them that resume (after an approval
 * wait, a passivation or a move to another verticle). A definition replaced at run time becomes
 * the current catalogue; it never changes a turn already validated.
 */
public interface CatalogVersions {

  /** The agent's name. */
  String agent();

  /** The catalogue new turns are validated against. */
  ToolCatalog current();

  /** The catalogue of {@code version}, or null when this process does not know it (any more). */
  ToolCatalog version(String version);

  /** One catalogue that never changes. */
  static CatalogVersions fixed(ToolCatalog catalog) {
    return new CatalogVersions() {
      @Override
      public String agent() {
        return catalog.agent();
      }

      @Override
      public ToolCatalog current() {
        return catalog;
      }

      @Override
      public ToolCatalog version(String version) {
        return catalog.version().equals(version) ? catalog : null;
      }
    };
  }
}

package dev.ratchet.server.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/** Reloads on SIGHUP, the Unix convention for "read your configuration again". */
public final class ReloadSignal {

  private static final Logger LOG = LoggerFactory.getLogger(ReloadSignal.class);

  private ReloadSignal() {
  }

  /** Installs the handler; answers false where the platform has no SIGHUP (the reload stays reachable otherwise). */
  public static boolean install(Reloader reloader) {
    try {
      Signal.handle(new Signal("HUP"), signal -> reloader.reload("SIGHUP"));
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      LOG.info("reload: SIGHUP cannot be handled here ({}); use a file change instead", e.getMessage());
      return false;
    }
  }
}

package dev.ratchet.server.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** Reloads on SIGHUP, the Unix convention for "read your configuration again". */
public final class ReloadSignal {

  private static final Logger LOG = LoggerFactory.getLogger(ReloadSignal.class);

  private ReloadSignal() {
  }

  /**
   * Installs the handler; answers false where SIGHUP cannot reach it: the platform has none, or the
   * process was started ignoring it ({@code nohup}), which the JVM keeps. {@code ratchet reload}
   * and file changes reload all the same ({@link ReloadRequests}, {@link DirectoryWatch}).
   */
  public static boolean install(Reloader reloader) {
    try {
      SignalHandler previous = Signal.handle(new Signal("HUP"), signal -> reloader.reload("SIGHUP"));
      if (previous == SignalHandler.SIG_IGN) {
        LOG.info("reload: this process was started ignoring SIGHUP (nohup?), so SIGHUP does not reload;"
            + " ratchet reload and changes to the agent files do");
        return false;
      }
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      LOG.info("reload: SIGHUP cannot be handled here ({}); ratchet reload and changes to the agent files reload",
          e.getMessage());
      return false;
    }
  }
}

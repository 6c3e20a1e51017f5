package dev.ratchet.runtime.testing;

/** Tear-down of what a test may or may not have started. */
public final class Closeables {

  private Closeables() {
  }

  /** Closes each of {@code started} that is not null, in order; a failure stops the rest, as it would inline. */
  public static void closeStarted(AutoCloseable... started) throws Exception {
    for (AutoCloseable c : started) {
      if (c != null) {
        c.close();
      }
    }
  }
}

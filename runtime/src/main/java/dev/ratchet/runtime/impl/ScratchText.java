package dev.ratchet.runtime.impl;

/**
 * A builder per thread for text that is copied out (as a string or bytes) as soon as it is written,
 * so that writing it allocates only the copy. Each user holds its own, so that one user's text is
 * never cleared by another's in the middle of it; a builder grown past 16 KB is not kept.
 */
public final class ScratchText {

  private static final int MAX_KEPT = 16 * 1024;

  private final int initial;
  private final ThreadLocal<StringBuilder> builders;

  public ScratchText(int initial) {
    this.initial = initial;
    this.builders = ThreadLocal.withInitial(() -> new StringBuilder(initial));
  }

  /** This thread's builder, empty. */
  public StringBuilder get() {
    StringBuilder sb = builders.get();
    if (sb.capacity() > MAX_KEPT) {
      sb = new StringBuilder(initial);
      builders.set(sb);
    }
    sb.setLength(0);
    return sb;
  }
}

package dev.ratchet.runtime;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/** The wire names of enums whose constants are their wire names in upper case, and the way back. */
public final class WireNames {

  private WireNames() {
  }

  /** The constant's name in lower case, its words joined by {@code separator}. */
  public static String of(Enum<?> constant, char separator) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', separator);
  }

  /** The constant whose wire name is {@code name}; else an IllegalArgumentException saying {@code unknown}. */
  public static <E> E parse(E[] constants, String name, Function<E, String> wireName, Supplier<String> unknown) {
    for (E c : constants) {
      if (wireName.apply(c).equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(unknown.get());
  }
}

package dev.ratchet.connectors;

import io.vertx.json.schema.OutputUnit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Keeps the errors a person can act on from a validator's output: the deepest location, and
 * there the specific complaint rather than the "a subschema had errors" wrappers around it.
 */
public final class SchemaErrors {

  private static final Pattern WRAPPER = Pattern.compile(
      "Property \\S+ does not match schema|Items did not match schema|A subschema had errors"
          + "|Property \\S+ does not match additional properties schema");
  private static final Pattern ADDITIONAL = Pattern.compile("Property (\\S+) does not match additional properties schema");

  private SchemaErrors() {
  }

  public static List<OutputUnit> mostSpecific(List<OutputUnit> errors) {
    List<OutputUnit> deepest = new ArrayList<>();
    for (OutputUnit e : errors) {
      String loc = location(e);
      boolean hasDeeper = errors.stream().anyMatch(o -> location(o).startsWith(loc + "/"));
      if (!hasDeeper) {
        deepest.add(e);
      }
    }
    List<OutputUnit> result = new ArrayList<>();
    for (OutputUnit e : deepest) {
      boolean wrapper = isWrapper(e);
      boolean specificHere = deepest.stream().anyMatch(o -> location(o).equals(location(e)) && !isWrapper(o));
      if (!wrapper) {
        result.add(e);
      } else if (!specificHere) {
        String msg = e.getError() == null ? "" : e.getError();
        result.add(new OutputUnit(e.getInstanceLocation(), e.getAbsoluteKeywordLocation(), e.getKeywordLocation(),
            ADDITIONAL.matcher(msg).matches() ? "is not a known field" : msg, e.getErrorType()));
      }
    }
    return result.isEmpty() ? errors : result;
  }

  /** The validator's wording, made plain: {@code Instance does not have required property "x"} → {@code field 'x' is missing}. */
  public static String humanize(String message) {
    if (message == null) {
      return "is invalid";
    }
    return message
        .replaceAll("^Instance does not have required property \"(.*)\"$", "field '$1' is missing")
        .replaceAll("^Instance does not match any of (.*)$", "must be one of $1")
        .replaceAll("^Instance type (\\S+) is invalid\\. Expected (\\S+)$", "is a $1 where a $2 is expected")
        .replaceAll("^String does not match pattern$", "does not have the expected format");
  }

  private static boolean isWrapper(OutputUnit e) {
    return e.getError() != null && WRAPPER.matcher(e.getError()).matches();
  }

  private static String location(OutputUnit e) {
    String loc = e.getInstanceLocation() == null ? "" : e.getInstanceLocation();
    return loc.startsWith("#") ? loc.substring(1) : loc;
  }
}

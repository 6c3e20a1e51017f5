package dev.ratchet.connectors.openapi;

/**
 * A path, query, header or cookie parameter of an operation and how it goes on the wire.
 *
 * @param name          the name on the wire, as the document spells it
 * @param argument      the property of the tool's input that carries it (see {@link ArgumentNames})
 * @param style         the serialization style, the location's default when the document names none
 * @param mediaType     for a parameter described by {@code content}: its media type, else null
 */
record OpenApiParameter(String name, String in, boolean required, String argument, String style, boolean explode,
                        boolean allowReserved, String mediaType) {

  static String defaultStyle(String in) {
    return in.equals("query") || in.equals("cookie") ? "form" : "simple";
  }
}

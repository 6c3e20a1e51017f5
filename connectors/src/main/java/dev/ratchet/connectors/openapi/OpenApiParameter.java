package dev.ratchet.connectors.openapi;

/** A path, query or header parameter of an operation; its argument has the same name. */
record OpenApiParameter(String name, String in, boolean required) {
}

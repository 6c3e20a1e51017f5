package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * How the argument {@code body} goes on the wire.
 *
 * @param mediaType the media type of the document's {@code content} that is sent, sent as the Content-Type
 * @param encoding  the media type's {@code encoding} object (form and multipart bodies), empty when none
 * @param files     the body's properties that are files (multipart bodies), each given as a {@link FileArgument}
 */
record RequestBodySpec(String mediaType, Kind kind, JsonObject encoding, Set<String> files) {

  /** The families of media types, each written its own way. */
  enum Kind {
    /** {@code application/json} and every {@code +json} type: the argument as JSON. */
    JSON,
    /** {@code application/x-www-form-urlencoded}: each property as a form-style query pair. */
    FORM,
    /** {@code multipart/form-data}: each property as a part, files as file parts. */
    MULTIPART,
    /** {@code text/*}, XML, YAML, GraphQL and the like: the argument, a string, as UTF-8 text. */
    TEXT,
    /** Anything else ({@code application/octet-stream}, images, PDF...): the argument is base64. */
    BINARY
  }
}

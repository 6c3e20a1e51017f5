package dev.ratchet.connectors;

/**
 * A construct of an OpenAPI document the connector does not support. {@code operationId} is null
 * for document-level constructs; an operation with a warning cannot be offered to agents.
 *
 * @param location where in the document, for example {@code paths./orders/{id}.post.requestBody}
 */
public record OpenApiWarning(String operationId, String location, String message) {

  @Override
  public String toString() {
    return (operationId == null ? "" : "operation '" + operationId + "': ") + message + " (at " + location + ")";
  }
}

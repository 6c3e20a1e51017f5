package dev.ratchet.connectors;

/**
 * Something about an OpenAPI document worth knowing when offering its operations. {@code
 * operationId} is null for document-level findings. Most are constructs the connector does not
 * support, and an operation with one cannot be offered to agents; a finding with {@code offered}
 * set (such as a very large input schema) leaves the operation offered.
 *
 * @param location where in the document, for example {@code paths./orders/{id}.post.requestBody}
 */
public record OpenApiWarning(String operationId, String location, String message, boolean offered) {

  /** A construct that keeps its operation from being offered. */
  public OpenApiWarning(String operationId, String location, String message) {
    this(operationId, location, message, false);
  }

  /** A finding that leaves its operation offered. */
  public static OpenApiWarning notice(String operationId, String location, String message) {
    return new OpenApiWarning(operationId, location, message, true);
  }

  @Override
  public String toString() {
    return (operationId == null ? "" : "operation '" + operationId + "': ") + message + " (at " + location + ")";
  }
}

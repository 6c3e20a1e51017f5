package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.OperationDefinition;

import java.util.List;

/**
 * What the connector needs to call one OpenAPI operation: its HTTP method and path template, its
 * parameters, how its body (argument {@code body}) is sent, null when it takes none, and the constructs it depends
 * on that are not supported.
 */
record OpenApiOperationSpec(String operationId, String method, String path, List<OpenApiParameter> parameters,
                            RequestBodySpec body, OperationDefinition definition, List<OpenApiWarning> problems) {

  /** The same operation with another definition (an agent file's effect class or timeout). */
  OpenApiOperationSpec with(OperationDefinition changed) {
    return new OpenApiOperationSpec(operationId, method, path, parameters, body, changed, problems);
  }
}

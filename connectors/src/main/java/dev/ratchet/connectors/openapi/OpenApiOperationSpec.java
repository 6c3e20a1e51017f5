package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.OperationDefinition;

import java.util.List;

/**
 * What the connector needs to call one OpenAPI operation: its HTTP method and path template, its
 * parameters, whether it takes a JSON body (argument {@code body}), and the constructs it depends
 * on that are not supported.
 */
record OpenApiOperationSpec(String operationId, String method, String path, List<OpenApiParameter> parameters,
                            boolean hasBody, OperationDefinition definition, List<OpenApiWarning> problems) {

  /** The same operation with another definition (an agent file's effect class or timeout). */
  OpenApiOperationSpec with(OperationDefinition changed) {
    return new OpenApiOperationSpec(operationId, method, path, parameters, hasBody, changed, problems);
  }
}

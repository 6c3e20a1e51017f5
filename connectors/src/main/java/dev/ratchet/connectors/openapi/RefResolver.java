package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Inlines {@code $ref}s that point inside the document ({@code #/components/...}). References to
 * other files and recursive references cannot be turned into one self-contained input schema, so
 * they are reported, never dropped.
 */
final class RefResolver {

  private final JsonObject document;

  RefResolver(JsonObject document) {
    this.document = document;
  }

  /** A copy of {@code node} with internal references inlined; problems found are added to {@code problems}. */
  Object resolve(Object node, List<String> problems) {
    return resolve(node, new ArrayDeque<>(), problems);
  }

  private Object resolve(Object node, Deque<String> stack, List<String> problems) {
    if (node instanceof JsonObject obj) {
      Object ref = obj.getValue("$ref");
      if (ref instanceof String r) {
        if (!r.startsWith("#/")) {
          problems.add("$ref to another document ('" + r + "') is not supported");
          return new JsonObject();
        }
        if (stack.contains(r)) {
          problems.add("recursive $ref ('" + r + "') is not supported");
          return new JsonObject();
        }
        Object target = pointer(r);
        if (target == null) {
          problems.add("$ref '" + r + "' points to nothing in the document");
          return new JsonObject();
        }
        stack.push(r);
        Object resolved = resolve(target, stack, problems);
        stack.pop();
        if (resolved instanceof JsonObject resolvedObj && obj.getValue("description") instanceof String d) {
          resolvedObj = resolvedObj.copy().put("description", d);
          return resolvedObj;
        }
        return resolved;
      }
      JsonObject out = new JsonObject();
      for (String key : obj.fieldNames()) {
        out.put(key, resolve(obj.getValue(key), stack, problems));
      }
      return out;
    }
    if (node instanceof JsonArray arr) {
      JsonArray out = new JsonArray();
      for (Object item : arr) {
        out.add(resolve(item, stack, problems));
      }
      return out;
    }
    return node;
  }

  private Object pointer(String ref) {
    Object current = document;
    for (String raw : ref.substring(2).split("/")) {
      String part = raw.replace("~1", "/").replace("~0", "~");
      if (!(current instanceof JsonObject obj)) {
        return null;
      }
      current = obj.getValue(part);
    }
    return current;
  }
}

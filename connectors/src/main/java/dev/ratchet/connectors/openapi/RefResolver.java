package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.ManifestException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlines {@code $ref}s: any JSON Pointer into the document ({@code #/components/schemas/X/allOf/0},
 * with {@code ~0}/{@code ~1} escapes and percent-encoding) or into a file next to it
 * ({@code ./schemas/pet.yaml#/Pet}, nested paths resolved against the referring file). A
 * schema met a second time in one input schema (shared, or recursive) becomes
 * {@code {"$ref": "#/$defs/Name"}} and is defined once under the input schema's {@code $defs} (see
 * docs/CONNECTORS.md, Schemas and references). What cannot be resolved is reported, never dropped.
 */
final class RefResolver {

  private final JsonObject document;
  private final RelatedFiles files;

  RefResolver(JsonObject document, Path documentFile) {
    this.document = document;
    this.files = new RelatedFiles(documentFile);
  }

  /** One input schema's resolution; recursive schemas it meets are collected for its {@code $defs}. */
  Scope scope() {
    return new Scope();
  }

  /**
   * Follows {@code $ref}s at the top of {@code node} only (a path item or an operation kept in
   * another file); what it holds is resolved later, each part where it is used.
   */
  Object follow(Object node, List<String> problems) {
    Object current = node;
    Deque<String> seen = new ArrayDeque<>();
    while (current instanceof JsonObject obj && obj.getValue("$ref") instanceof String ref) {
      Target target = locate(ref, problems);
      if (target == null) {
        return new JsonObject();
      }
      if (seen.contains(target.key())) {
        problems.add("$ref '" + ref + "' refers to itself");
        return new JsonObject();
      }
      seen.push(target.key());
      current = target.value();
    }
    return current;
  }

  /** Where a reference points: a key the same wherever it is written from, and the value there. */
  private record Target(String key, String name, Object value) {
  }

  private Target locate(String ref, List<String> problems) {
    int hash = ref.indexOf('#');
    String pathPart = hash < 0 ? ref : ref.substring(0, hash);
    String fragment = hash < 0 ? "" : ref.substring(hash + 1);
    Object root = document;
    String file = "";
    if (!pathPart.isEmpty()) {
      if (pathPart.matches("[A-Za-z][A-Za-z0-9+.-]*:.*") && !pathPart.startsWith("file:")) {
        problems.add("$ref to a URL ('" + ref + "') is not supported; save the referenced document next to this one");
        return null;
      }
      if (!files.fromFile() && !pathPart.startsWith("file:")) {
        problems.add("$ref to another file ('" + ref + "') needs the document to be read from a file");
        return null;
      }
      Path path = files.resolve(pathPart);
      if (!files.isDocument(path)) {
        try {
          root = files.content(path);
        } catch (ManifestException e) {
          problems.add("$ref '" + ref + "': " + e.getMessage());
          return null;
        }
        file = path.toUri().toString();
      }
    }
    Object value = JsonPointer.evaluate(root, fragment);
    if (value == JsonPointer.MISSING) {
      problems.add("$ref '" + ref + "' points to nothing in " + (file.isEmpty() ? "the document" : file));
      return null;
    }
    String name = fragment.isEmpty() || fragment.equals("/") ? fileStem(file) : JsonPointer.lastToken(fragment);
    return new Target(file + "#" + fragment, name, value);
  }

  private static String fileStem(String file) {
    String last = file.substring(file.lastIndexOf('/') + 1);
    int dot = last.indexOf('.');
    return dot > 0 ? last.substring(0, dot) : last;
  }

  /**
   * The references of one input schema. Each schema a reference names is inlined where it is first
   * met; met again (shared by two properties, or recursive), it becomes a {@code $ref} into the
   * input schema's {@code $defs}, so that an input schema grows with the schemas it uses, not with
   * the number of paths to them.
   */
  final class Scope {

    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, Object> expanded = new LinkedHashMap<>();
    /** The schemas being inlined that say {@code $recursiveAnchor: true}, innermost first. */
    private final Deque<Target> anchors = new ArrayDeque<>();

    /**
     * A copy of {@code node} (a parameter, a request body or a schema whose own {@code $ref} was
     * {@linkplain #follow followed}) with references inlined; problems found are added to
     * {@code problems}.
     */
    Object resolve(Object node, List<String> problems) {
      return resolve(node, new ArrayDeque<>(), problems);
    }

    /** {@link RefResolver#follow}: a parameter or request body kept elsewhere, not yet inlined. */
    Object follow(Object node, List<String> problems) {
      return RefResolver.this.follow(node, problems);
    }

    /** The schemas met more than once, by the name their {@code $ref}s use; empty when none. */
    JsonObject defs() {
      JsonObject defs = new JsonObject();
      names.forEach((key, name) -> defs.put(name, expanded.get(key)));
      return defs;
    }

    private Object resolve(Object node, Deque<String> stack, List<String> problems) {
      if (node instanceof JsonObject obj) {
        if (obj.getValue("$ref") instanceof String r) {
          Target target = locate(r, problems);
          if (target == null) {
            return new JsonObject();
          }
          Object resolved;
          if (stack.contains(target.key()) || expanded.containsKey(target.key())) {
            resolved = new JsonObject().put("$ref", "#/$defs/" + defName(target));
          } else {
            boolean anchor = target.value() instanceof JsonObject t && Boolean.TRUE.equals(t.getValue("$recursiveAnchor"));
            if (anchor) {
              anchors.push(target);
            }
            stack.push(target.key());
            resolved = resolve(target.value(), stack, problems);
            stack.pop();
            if (anchor) {
              anchors.pop();
            }
            expanded.put(target.key(), resolved);
          }
          if (resolved instanceof JsonObject resolvedObj && obj.getValue("description") instanceof String d) {
            return resolvedObj.copy().put("description", d);
          }
          return resolved;
        }
        if ("#".equals(obj.getValue("$recursiveRef")) && !anchors.isEmpty()) {
          // draft 2019-09's recursion, as OpenAI's document writes it: the outermost anchored schema
          // being inlined is the one it means, and 2020-12 says the same with a $ref into $defs
          JsonObject out = keywords(obj, stack, problems);
          out.remove("$recursiveRef");
          return out.put("$ref", "#/$defs/" + defName(anchors.peekLast()));
        }
        return keywords(obj, stack, problems);
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

    /**
     * An object of keywords: an example is data, never followed; OpenAPI's {@code examples} map
     * (Example Objects, documentation only) is left out. Properties, whatever their names, are schemas.
     */
    private JsonObject keywords(JsonObject obj, Deque<String> stack, List<String> problems) {
      JsonObject out = new JsonObject();
      for (String key : obj.fieldNames()) {
        Object value = obj.getValue(key);
        switch (key) {
          case "example", "const", "default", "enum" -> out.put(key, value);
          case "examples" -> {
            if (value instanceof JsonArray) {
              out.put(key, value);
            }
          }
          case "properties", "patternProperties", "$defs", "definitions" -> {
            if (value instanceof JsonObject map && map.size() == 1 && map.getValue("$ref") instanceof String r) {
              // a whole map of properties kept elsewhere, as some documents write it
              Target target = locate(r, problems);
              value = target == null ? new JsonObject() : target.value();
            }
            if (value instanceof JsonObject named) {
              JsonObject schemas = new JsonObject();
              named.forEach(e -> schemas.put(e.getKey(), resolve(e.getValue(), stack, problems)));
              out.put(key, schemas);
            } else {
              out.put(key, value);
            }
          }
          default -> out.put(key, resolve(value, stack, problems));
        }
      }
      return out;
    }

    private String defName(Target target) {
      String known = names.get(target.key());
      if (known != null) {
        return known;
      }
      String base = target.name().replaceAll("[^A-Za-z0-9_.-]", "_");
      base = base.isEmpty() ? "schema" : base;
      String name = base;
      for (int i = 2; names.containsValue(name); i++) {
        name = base + "_" + i;
      }
      names.put(target.key(), name);
      return name;
    }
  }
}

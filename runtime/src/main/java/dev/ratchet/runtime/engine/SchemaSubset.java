package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The part of JSON Schema that tools' input schemas mostly use (type, properties, required,
 * additionalProperties, enum, const, items, and length, size and numeric bounds), checked directly.
 *
 * <p>Why: the full validator runs one method too big for the JIT compiler, so it stays interpreted
 * and costs microseconds a call even for a schema of three fields. A check answers only
 * "certainly valid"; every other answer, and every schema with a keyword outside the subset, goes
 * to the full validator, which also words the problems. A check is therefore never more lenient
 * than the full validator: where this class is unsure (a fraction where an integer is asked for, a
 * length in a string with surrogate pairs, numbers in an enum), it says no.
 */
final class SchemaSubset {

  /** A compiled schema: true only when the instance certainly satisfies it. */
  interface Check {
    boolean certainlyValid(Object instance);
  }

  private static final Set<String> ANNOTATIONS = Set.of("title", "description", "default", "examples", "$comment",
      "deprecated", "readOnly", "writeOnly");
  /** The kind of a number written with a fraction, which may or may not count as an integer. */
  private static final String FRACTION = "number with a fraction";
  private static final Set<String> TYPES = Set.of("object", "array", "string", "integer", "number", "boolean", "null");

  private SchemaSubset() {
  }

  /** The check for a tool's input schema, or null when the schema uses anything outside the subset. */
  static Check compile(JsonObject schema) {
    Map<String, Object> root = new HashMap<>(schema.getMap());
    root.remove("$schema");
    return compileSchema(root);
  }

  private static Check compileSchema(Object schema) {
    if (schema instanceof Boolean) {
      boolean accepts = (Boolean) schema;
      return instance -> accepts;
    }
    Map<?, ?> map = asMap(schema);
    if (map == null) {
      return null;
    }
    List<Check> checks = new ArrayList<>();
    Map<String, Check> properties = new HashMap<>();
    Object additional = null;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String keyword = String.valueOf(e.getKey());
      Object value = e.getValue();
      if (ANNOTATIONS.contains(keyword)) {
        continue;
      }
      Check check;
      switch (keyword) {
        case "type":
          check = type(value);
          break;
        case "properties":
          check = properties(value, properties);
          break;
        case "additionalProperties":
          additional = value;
          continue;
        case "required":
          check = required(value);
          break;
        case "enum":
          check = oneOf(value);
          break;
        case "const":
          check = instance -> equal(instance, value);
          break;
        case "items":
          check = items(value);
          break;
        case "minItems":
        case "maxItems":
        case "minLength":
        case "maxLength":
        case "minProperties":
        case "maxProperties":
          check = size(keyword, value);
          break;
        case "minimum":
        case "maximum":
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          check = bound(keyword, value);
          break;
        default:
          return null;
      }
      if (check == null) {
        return null;
      }
      checks.add(check);
    }
    if (additional != null) {
      Check rest = compileSchema(additional);
      if (rest == null) {
        return null;
      }
      Set<String> named = properties.keySet();
      checks.add(onObjects(object -> {
        for (Map.Entry<?, ?> e : object.entrySet()) {
          if (!named.contains(String.valueOf(e.getKey())) && !rest.certainlyValid(e.getValue())) {
            return false;
          }
        }
        return true;
      }));
    }
    Check[] all = checks.toArray(new Check[0]);
    return instance -> {
      for (Check c : all) {
        if (!c.certainlyValid(instance)) {
          return false;
        }
      }
      return true;
    };
  }

  private static Check type(Object value) {
    List<String> names = new ArrayList<>();
    if (value instanceof String) {
      names.add((String) value);
    } else if (asList(value) != null) {
      for (Object o : asList(value)) {
        if (!(o instanceof String)) {
          return null;
        }
        names.add((String) o);
      }
    } else {
      return null;
    }
    if (!TYPES.containsAll(names)) {
      return null;
    }
    String[] allowed = names.toArray(new String[0]);
    return instance -> {
      String kind = kind(instance);
      if (kind == null) {
        return false;
      }
      for (String t : allowed) {
        if (t.equals(kind) || "number".equals(t) && ("integer".equals(kind) || FRACTION.equals(kind))) {
          return true;
        }
      }
      return false;
    };
  }

  private static Check properties(Object value, Map<String, Check> into) {
    Map<?, ?> map = asMap(value);
    if (map == null) {
      return null;
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      Check c = compileSchema(e.getValue());
      if (c == null) {
        return null;
      }
      into.put(String.valueOf(e.getKey()), c);
    }
    Map<String, Check> checks = Map.copyOf(into);
    return onObjects(object -> {
      for (Map.Entry<String, Check> e : checks.entrySet()) {
        if (object.containsKey(e.getKey()) && !e.getValue().certainlyValid(object.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    });
  }

  private static Check required(Object value) {
    List<?> list = asList(value);
    if (list == null) {
      return null;
    }
    Set<String> names = new HashSet<>();
    for (Object o : list) {
      if (!(o instanceof String)) {
        return null;
      }
      names.add((String) o);
    }
    return onObjects(object -> object.keySet().containsAll(names));
  }

  private static Check oneOf(Object value) {
    List<?> list = asList(value);
    if (list == null) {
      return null;
    }
    List<Object> values = new ArrayList<>(list);
    return instance -> {
      for (Object v : values) {
        if (equal(instance, v)) {
          return true;
        }
      }
      return false;
    };
  }

  private static Check items(Object value) {
    if (asList(value) != null) {
      // the draft-07 tuple form
      return null;
    }
    Check each = compileSchema(value);
    if (each == null) {
      return null;
    }
    return instance -> {
      List<?> array = asList(instance);
      if (array == null) {
        return true;
      }
      for (Object o : array) {
        if (!each.certainlyValid(o)) {
          return false;
        }
      }
      return true;
    };
  }

  private static Check size(String keyword, Object value) {
    Long limit = wholeNumber(value);
    if (limit == null || limit < 0) {
      return null;
    }
    boolean min = keyword.startsWith("min");
    String applies = keyword.endsWith("Items") ? "array" : keyword.endsWith("Length") ? "string" : "object";
    return instance -> {
      String kind = kind(instance);
      if (!applies.equals(kind)) {
        return kind != null;
      }
      long size;
      if ("string".equals(kind)) {
        String s = (String) instance;
        if (s.codePointCount(0, s.length()) != s.length()) {
          // lengths count code points; not every validator does
          return false;
        }
        size = s.length();
      } else if ("array".equals(kind)) {
        size = asList(instance).size();
      } else {
        size = asMap(instance).size();
      }
      return min ? size >= limit : size <= limit;
    };
  }

  private static Check bound(String keyword, Object value) {
    if (!(value instanceof Number) || value instanceof Double && !Double.isFinite((Double) value)) {
      return null;
    }
    BigDecimal limit = new BigDecimal(value.toString());
    return instance -> {
      if (!(instance instanceof Number)) {
        return kind(instance) != null;
      }
      if (!(instance instanceof Integer || instance instanceof Long || instance instanceof Short
          || instance instanceof Byte)) {
        // fractions and big numbers: the full validator's arithmetic decides
        return false;
      }
      int c = BigDecimal.valueOf(((Number) instance).longValue()).compareTo(limit);
      switch (keyword) {
        case "minimum":
          return c >= 0;
        case "maximum":
          return c <= 0;
        case "exclusiveMinimum":
          return c > 0;
        default:
          return c < 0;
      }
    };
  }

  /** A check of objects' members; keywords about objects say nothing of other instances. */
  private static Check onObjects(java.util.function.Predicate<Map<?, ?>> members) {
    return instance -> {
      Map<?, ?> object = asMap(instance);
      return object == null || members.test(object);
    };
  }

  /** The JSON type of an instance, or null for what this class does not judge. */
  private static String kind(Object instance) {
    if (instance == null) {
      return "null";
    }
    if (instance instanceof String) {
      return "string";
    }
    if (instance instanceof Boolean) {
      return "boolean";
    }
    if (instance instanceof Integer || instance instanceof Long || instance instanceof Short
        || instance instanceof Byte || instance instanceof BigInteger) {
      return "integer";
    }
    if (instance instanceof Double || instance instanceof Float || instance instanceof BigDecimal) {
      // 1.0 counts as an integer in JSON Schema: leave fractions to the full validator
      return FRACTION;
    }
    if (asMap(instance) != null) {
      return "object";
    }
    if (asList(instance) != null) {
      return "array";
    }
    return null;
  }

  /** Strings, booleans and null compare by value; numbers, objects and arrays are left to the full validator. */
  private static boolean equal(Object instance, Object expected) {
    if (instance == null || instance instanceof String || instance instanceof Boolean) {
      return Objects.equals(instance, expected);
    }
    return false;
  }

  private static Long wholeNumber(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    return null;
  }

  private static Map<?, ?> asMap(Object o) {
    if (o instanceof JsonObject) {
      return ((JsonObject) o).getMap();
    }
    return o instanceof Map ? (Map<?, ?>) o : null;
  }

  private static List<?> asList(Object o) {
    if (o instanceof JsonArray) {
      return ((JsonArray) o).getList();
    }
    return o instanceof List ? (List<?>) o : null;
  }
}

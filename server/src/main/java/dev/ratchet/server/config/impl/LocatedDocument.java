package dev.ratchet.server.config.impl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * A YAML or JSON document read as Vert.x JSON, remembering the line of every field and element
 * (by JSON pointer) so that a problem found later can name its line.
 */
public final class LocatedDocument {

  /** The document could not be read: the parser's message and line. */
  public static final class SyntaxError extends Exception {
    public final int line;

    SyntaxError(String message, int line) {
      super(message);
      this.line = line;
    }
  }

  private final JsonObject root;
  private final Map<String, Integer> lines;

  private LocatedDocument(JsonObject root, Map<String, Integer> lines) {
    this.root = root;
    this.lines = lines;
  }

  public static LocatedDocument parse(String text, boolean yaml) throws SyntaxError {
    JsonFactory factory = yaml ? new YAMLFactory() : new JsonFactory();
    Map<String, Integer> lines = new HashMap<>();
    try (JsonParser p = factory.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new SyntaxError("the file is empty", 1);
      }
      if (first != JsonToken.START_OBJECT) {
        throw new SyntaxError("the file must hold one object (agent: ..., tools: ...), not a " + kind(first),
            p.currentTokenLocation().getLineNr());
      }
      JsonObject root = (JsonObject) value(p, "", lines);
      if (p.nextToken() != null) {
        throw new SyntaxError("the file holds more than one document", p.currentTokenLocation().getLineNr());
      }
      return new LocatedDocument(root, lines);
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      String message = e.getOriginalMessage() == null ? "cannot be parsed" : e.getOriginalMessage();
      throw new SyntaxError("not valid " + (yaml ? "YAML" : "JSON") + ": " + firstLine(message), Math.max(line, 0));
    } catch (IOException e) {
      throw new SyntaxError("cannot be read: " + e.getMessage(), 0);
    }
  }

  public JsonObject root() {
    return root;
  }

  /** The line of the value at this pointer, or of its nearest enclosing value that has one. */
  public int line(String pointer) {
    String p = pointer;
    while (true) {
      Integer line = lines.get(p);
      if (line != null) {
        return line;
      }
      if (p.isEmpty()) {
        return 1;
      }
      p = p.substring(0, p.lastIndexOf('/'));
    }
  }

  /** {@code /tools/0/operations/2} as {@code tools[0].operations[2]}. */
  public static String field(String pointer) {
    StringBuilder sb = new StringBuilder();
    for (String segment : pointer.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      String name = segment.replace("~1", "/").replace("~0", "~");
      if (name.matches("[0-9]+")) {
        sb.append('[').append(name).append(']');
      } else {
        sb.append(sb.length() == 0 ? "" : ".").append(name);
      }
    }
    return sb.toString();
  }

  public static String pointer(String parent, String name) {
    return parent + "/" + name.replace("~", "~0").replace("/", "~1");
  }

  private static Object value(JsonParser p, String pointer, Map<String, Integer> lines) throws IOException,
      SyntaxError {
    lines.putIfAbsent(pointer, p.currentTokenLocation().getLineNr());
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        JsonObject object = new JsonObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          String child = pointer(pointer, name);
          int line = p.currentTokenLocation().getLineNr();
          if (object.containsKey(name)) {
            throw new SyntaxError("field '" + name + "' is given twice" + (pointer.isEmpty() ? "" : " in "
                + field(pointer)), line);
          }
          lines.put(child, line);
          p.nextToken();
          object.put(name, value(p, child, lines));
        }
        return object;
      }
      case START_ARRAY -> {
        JsonArray array = new JsonArray();
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(p, pointer + "/" + i++, lines));
        }
        return array;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? new BigInteger(p.getText()).doubleValue()
            : (Object) p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new SyntaxError("unexpected " + t, p.currentTokenLocation().getLineNr());
    }
  }

  private static String kind(JsonToken t) {
    return switch (t) {
      case START_ARRAY -> "list";
      case VALUE_STRING -> "text";
      default -> "value";
    };
  }

  private static String firstLine(String message) {
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}

package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.ManifestException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The files a multi-file document refers to ({@code ./schemas/pet.yaml#/Pet}), read once each.
 * Every {@code $ref} inside a file read here is rewritten to an absolute {@code file:} reference,
 * so that it means the same wherever its schema ends up; only the document itself keeps relative
 * references, resolved against its own directory.
 */
final class RelatedFiles {

  private final Path document;
  private final Map<Path, Object> read = new HashMap<>();

  /** {@code document} is the file the document was read from, or null when it was not read from a file. */
  RelatedFiles(Path document) {
    this.document = document == null ? null : document.toAbsolutePath().normalize();
  }

  /** The file a reference's path part names: absolute ({@code file:}) or relative to the document. */
  Path resolve(String pathPart) {
    if (pathPart.startsWith("file:")) {
      return Path.of(URI.create(pathPart)).normalize();
    }
    return document.resolveSibling(URLDecoder.decode(pathPart.replace("+", "%2B"), StandardCharsets.UTF_8))
        .normalize();
  }

  boolean fromFile() {
    return document != null;
  }

  boolean isDocument(Path file) {
    return file.equals(document);
  }

  /** The content of {@code file}, with its references made absolute; fails saying why it cannot be read. */
  Object content(Path file) {
    Object cached = read.computeIfAbsent(file, RelatedFiles::load);
    if (cached instanceof String problem) {
      throw new ManifestException(problem);
    }
    return cached;
  }

  private static Object load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "the referenced file " + file + " cannot be read (" + e.getClass().getSimpleName() + ")";
    }
    try {
      Object content = OpenApiDocument.read(text, file.toString());
      return absolute(content, file);
    } catch (ManifestException e) {
      return e.getMessage();
    }
  }

  private static Object absolute(Object node, Path file) {
    if (node instanceof JsonObject obj) {
      JsonObject out = new JsonObject();
      for (String key : obj.fieldNames()) {
        Object value = obj.getValue(key);
        out.put(key, key.equals("$ref") && value instanceof String ref ? absoluteRef(ref, file) : absolute(value, file));
      }
      return out;
    }
    if (node instanceof JsonArray arr) {
      JsonArray out = new JsonArray();
      arr.forEach(item -> out.add(absolute(item, file)));
      return out;
    }
    return node;
  }

  private static String absoluteRef(String ref, Path file) {
    if (ref.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
      return ref;
    }
    int hash = ref.indexOf('#');
    String pathPart = hash < 0 ? ref : ref.substring(0, hash);
    String fragment = hash < 0 ? "" : ref.substring(hash);
    Path target = pathPart.isEmpty() ? file
        : file.resolveSibling(URLDecoder.decode(pathPart.replace("+", "%2B"), StandardCharsets.UTF_8)).normalize();
    return target.toUri() + fragment;
  }
}

package dev.ratchet.turns;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Every example of docs/ADAPTERS.md is the tagged part of a compiled (and tested) source file. */
class AdaptersDocTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();
  private static final Pattern EXAMPLE = Pattern.compile("<!-- example: (\\S+) -->\\n```java\\n(.*?)\\n```", Pattern.DOTALL);

  @Test
  void eachExampleIsTheCompiledFileItNames() throws IOException {
    String doc = Files.readString(ROOT.resolve("docs/ADAPTERS.md"));
    Matcher m = EXAMPLE.matcher(doc);
    List<String> files = new ArrayList<>();
    while (m.find()) {
      files.add(m.group(1));
      assertThat(m.group(2)).as(m.group(1)).isEqualTo(tagged(ROOT.resolve(m.group(1))));
    }
    assertThat(files).hasSize(4);
  }

  private static String tagged(Path file) throws IOException {
    String source = Files.readString(file);
    String start = "// tag::example[]\n";
    String body = source.substring(source.indexOf(start) + start.length(), source.indexOf("  // end::example[]"));
    StringBuilder out = new StringBuilder();
    for (String line : body.split("\n", -1)) {
      out.append(line.startsWith("  ") ? line.substring(2) : line).append('\n');
    }
    return out.toString().stripTrailing();
  }
}

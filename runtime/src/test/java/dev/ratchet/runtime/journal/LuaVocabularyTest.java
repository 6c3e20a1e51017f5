package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every error code and event type the journal's Lua scripts write is one of the enums that define them. */
class LuaVocabularyTest {

  private static final Path SCRIPTS = Path.of("src/main/resources/dev/ratchet/runtime/journal");
  private static final Pattern ERROR_REPLY = Pattern.compile("redis\\.error_reply\\('([A-Z_]+)");
  private static final Pattern EVENT_LITERAL =
      Pattern.compile("'((?:session|turn|call|approval|message|model)\\.[a-z_]+)'");

  @Test
  void everyErrorCodeAndEventTypeInTheScriptsIsKnown() throws IOException {
    List<String> codes = new ArrayList<>();
    List<String> events = new ArrayList<>();
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      for (Path lua : files.filter(p -> p.toString().endsWith(".lua")).toList()) {
        String text = Files.readString(lua, StandardCharsets.UTF_8);
        collect(ERROR_REPLY.matcher(text), codes);
        collect(EVENT_LITERAL.matcher(text), events);
      }
    }
    assertThat(codes).isNotEmpty().allSatisfy(c -> assertThat(ErrorCode.valueOf(c)).isNotNull());
    assertThat(events).contains("approval.requested", "turn.submitted")
        .allSatisfy(e -> assertThat(EventType.ofWireName(e)).as("event type %s", e).isNotNull());
  }

  private static void collect(Matcher m, List<String> into) {
    while (m.find()) {
      into.add(m.group(1));
    }
  }
}

package dev.ratchet.connectors;

import dev.ratchet.connectors.testing.ConnectionFiles;
import dev.ratchet.runtime.EffectClass;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class DocumentationExamplesTest {

  @TempDir
  Path dir;

  private static List<JsonObject> jsonExamples() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "CONNECTORS.md"));
    Matcher m = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    List<JsonObject> out = new ArrayList<>();
    while (m.find()) {
      out.add(new JsonObject(m.group(1)));
    }
    return out;
  }

  @Test
  void everyJsonExampleInTheConnectorsGuideIsAValidManifestOrConnectionsFile() throws Exception {
    List<JsonObject> examples = jsonExamples();
    assertThat(examples).hasSizeGreaterThanOrEqualTo(2);
    int manifests = 0;
    int connectionFiles = 0;
    for (JsonObject example : examples) {
      if (example.containsKey("operations")) {
        ConnectorManifest m = ConnectorManifest.fromJson(example, "docs/CONNECTORS.md");
        assertThat(m.operation("refundOrder").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
        manifests++;
      } else {
        Path file = ConnectionFiles.writePrivate(dir.resolve("connections-" + connectionFiles + ".json"), example);
        Connections c = Connections.load(Map.of(Connections.FILE_VARIABLE, file.toString()));
        assertThat(c.names()).isNotEmpty();
        connectionFiles++;
      }
    }
    assertThat(manifests).isEqualTo(1);
    assertThat(connectionFiles).isEqualTo(1);
  }
}

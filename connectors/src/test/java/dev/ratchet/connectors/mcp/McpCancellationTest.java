package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class McpCancellationTest extends McpSourceTestBase {

  @Test
  void aCallGivenUpOnIsCancelledAtTheServerBeforeItsFailureIsReported() throws Exception {
    Path received = Files.createTempFile("mcp-received-", ".jsonl");
    source = McpToolSource.create(vertx, McpStdioToolSourceTest.stdioServer("local")
        .env("MCP_TEST_RECORD", received.toString()).build());
    Tool held = named(await(source.tools(vertx)), "hold_message");
    CallId id = CallId.of("session-1", "turn-cancel", 0);
    JsonObject args = new JsonObject().put("text", "hi");
    ToolInvocation oneSecond = new ToolInvocation("session-1", id, IdempotencyKey.of(id, args), 1, args,
        System.currentTimeMillis() + 1_000);

    assertThatThrownBy(() -> held.invoke(oneSecond)
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasMessageContaining("did not answer");

    // the notification left before the failure was reported; the child copies what it reads as it reads it
    String callId = null;
    long until = System.currentTimeMillis() + 3_000;
    String text = "";
    while (System.currentTimeMillis() < until) {
      text = Files.readString(received, StandardCharsets.UTF_8);
      if (text.contains("notifications/cancelled")) {
        break;
      }
      Thread.sleep(20);
    }
    for (String line : text.split("\n")) {
      JsonObject message = new JsonObject(line);
      if ("tools/call".equals(message.getString("method"))) {
        callId = String.valueOf(message.getValue("id"));
      }
      if ("notifications/cancelled".equals(message.getString("method"))) {
        assertThat(String.valueOf(message.getJsonObject("params").getValue("requestId"))).isEqualTo(callId);
        assertThat(message.getJsonObject("params").getString("reason")).contains("gave up");
        return;
      }
    }
    throw new AssertionError("the server never received notifications/cancelled; it read: " + text);
  }
}

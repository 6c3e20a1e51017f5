package dev.ratchet.server;

import dev.ratchet.runtime.Secret;
import io.vertx.core.json.Json;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A child process with the logging set-up of {@code ratchet run}: reveals the secret in
 * {@code LEAK_TEST_SECRET} as a tool source would, then lets a third-party logger and plain prints
 * write it out in several spellings. The test reads what reached standard error and output.
 */
public final class RedactedLogChild {

  private RedactedLogChild() {
  }

  public static void main(String[] args) {
    Main.prepareProcess();
    String value = Secret.from(() -> System.getenv("LEAK_TEST_SECRET")).reveal();
    String b64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    // as the MCP SDK logs what a server sends, at INFO
    LoggerFactory.getLogger("io.modelcontextprotocol.client.transport.StdioClientTransport")
        .info("STDERR Message received: token was {}", value);
    LoggerFactory.getLogger("io.netty.handler.logging.LoggingHandler").warn("frame {}", Json.encode(value));
    LoggerFactory.getLogger("com.example.Vault").error("Authorization: Basic {}",
        Base64.getEncoder().encodeToString(("bot:" + value).getBytes(StandardCharsets.UTF_8)));
    System.out.print("printed in pieces: " + value.substring(0, 6));
    System.out.println(value.substring(6) + " and " + b64);
    System.err.println("the end");
    System.out.flush();
    System.err.flush();
  }
}

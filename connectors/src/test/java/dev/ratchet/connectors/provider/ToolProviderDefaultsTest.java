package dev.ratchet.connectors.provider;

import dev.ratchet.connectors.provider.impl.ProviderTool;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolProviderDefaultsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  /** A catalogue that only lists and resolves: the optional methods are left to their defaults. */
  private static final class EchoProvider implements ToolProvider {

    @Override
    public ProviderInfo info() {
      return new ProviderInfo("echo", "Echo", "answers with its arguments", null);
    }

    @Override
    public Future<ProviderPage<ProviderToolInfo>> listTools(ListToolsOptions options) {
      return Future.succeededFuture(new ProviderPage<>(List.of(new ProviderToolInfo("ECHO", "echo", "echoes", null,
          EffectClass.READ, false)), null));
    }

    @Override
    public Future<Map<String, Tool>> resolveTools(List<String> slugs, Map<String, ProviderToolConfig> configs,
                                                  ResolveOptions options) {
      Map<String, Tool> tools = new LinkedHashMap<>();
      for (String slug : slugs) {
        tools.put(slug, new ProviderTool(slug, "echoes", new JsonObject().put("type", "object"), EffectClass.READ,
            ApprovalRule.never(), Duration.ofSeconds(5), "provider:echo", options.authorId(),
            inv -> Future.succeededFuture(ToolResult.success(inv.arguments()))));
      }
      return Future.succeededFuture(tools);
    }
  }

  @Test
  void aProviderThatOnlyListsAndResolvesIsAWorkingToolSource() {
    ToolProvider echo = new EchoProvider();
    assertThat(echo.capabilities()).isEqualTo(ProviderCapabilities.NONE);
    assertThat(echo.defaultScope()).isEqualTo(ConnectionScope.PER_AUTHOR);
    assertThat(await(echo.listToolkits()).items()).isEmpty();
    assertThat(await(echo.getHealth()).healthy()).isTrue();

    ProviderToolSource source = ProviderToolSource.create(echo, List.of("ECHO"), Map.of(), ResolveOptions.author("ann"));
    assertThat(await(source.sourceHealth()).status()).isEqualTo("healthy");
    Tool tool = await(source.tools(vertx)).get(0);
    ToolResult r = await(tool.invoke(of(new JsonObject().put("say", "hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(((JsonObject) r.value()).getString("say")).isEqualTo("hi");
  }

  @Test
  void optionalMethodsAProviderDoesNotImplementFailAsUnsupported() {
    ToolProvider echo = new EchoProvider();
    ResolveOptions ann = ResolveOptions.author("ann");
    for (Future<?> f : List.<Future<?>>of(echo.authorize(AuthorizeOptions.toolkit("x", ann)),
        echo.getAuthStatus("a1"), echo.listConnectionFields("x"), echo.getToolSchema("ECHO"),
        echo.getConnectionStatus(List.of(new ConnectionRef("c1", "x")), ann),
        echo.listConnections(new ListConnectionsOptions(ann, null)), echo.revokeConnection("c1", ann),
        echo.listToolkits("some-cursor"))) {
      assertThatThrownBy(f::await).isInstanceOf(ProviderException.class)
          .satisfies(e -> assertThat(((ProviderException) e).code()).isIn("UNSUPPORTED", "INVALID_CURSOR"))
          .hasMessageContaining("echo");
    }
  }
}

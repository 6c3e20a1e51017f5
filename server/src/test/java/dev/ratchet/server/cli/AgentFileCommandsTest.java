package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.CommandRun;
import dev.ratchet.server.config.AgentFiles;
import dev.ratchet.server.config.AgentFilesException;
import dev.ratchet.server.config.LoadedAgents;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code ratchet check}, and agents from files beside agents registered from Java. */
class AgentFileCommandsTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  /** The {@code agents} directory holding these files: pairs of (name, content). */
  private Path agentFiles(String... nameAndContent) throws IOException {
    Path agents = Files.createDirectories(dir.resolve("agents"));
    for (int i = 0; i + 1 < nameAndContent.length; i += 2) {
      Files.writeString(agents.resolve(nameAndContent[i]), nameAndContent[i + 1]);
    }
    return agents;
  }

  @Test
  void checkPrintsEveryProblemOfEveryFileAndExitsOne() throws Exception {
    Path agents = agentFiles("a.yaml", "agent: a\nmaxTurnz: 3\n",
        "b.yaml", "agent: b\ntools:\n  - slack: { connection: nowhere, operations: [postThreadReply] }\n");
    String[] printed = new String[2];
    int code = check(printed);
    assertThat(code).isEqualTo(1);
    assertThat(printed[1]).contains("2 problem(s) in the agent files of " + agents + ":")
        .contains(agents.resolve("a.yaml") + ":2: unknown field 'maxTurnz' (known: agent, model, maxTurns,"
            + " systemPrompt, tools, policies)")
        .contains(agents.resolve("b.yaml") + ":3: tools[0].slack.connection: connection 'nowhere' is not configured");
  }

  @Test
  void checkOfGoodFilesSaysWhatItFoundAndExitsZero() throws Exception {
    Path agents = agentFiles("minimal.json", "{\"agent\": \"minimal\"}\n");
    String[] printed = new String[2];
    assertThat(check(printed)).as(printed[1]).isZero();
    assertThat(printed[0]).contains("ok: agent 'minimal' (" + agents.resolve("minimal.json") + ":1), 0 tool source(s)");
  }

  @Test
  void anOpenAiModelNeedsAKeyOrABaseUrlAndOtherProvidersAreRefusedByTheSchema() throws Exception {
    Path agents = agentFiles("a.yaml", "agent: a\nmodel: openai:gpt-4.1-mini\n",
        "b.yaml", "agent: b\nmodel: anthropic:claude\n");
    String[] printed = new String[2];
    boolean keyInEnvironment = System.getenv("OPENAI_API_KEY") != null || System.getenv("RATCHET_MODEL_API_KEY") != null;
    assertThat(check(printed, new JsonObject())).isEqualTo(1);
    assertThat(printed[1]).contains(agents.resolve("b.yaml") + ":2: model: must be openai:<model> (for example openai:gpt-4.1-mini)"
        + " or scripted");
    if (!keyInEnvironment) {
      assertThat(printed[1]).contains(agents.resolve("a.yaml") + ":2: model: openai:gpt-4.1-mini needs OPENAI_API_KEY"
          + " (or RATCHET_MODEL_API_KEY), or agent.modelBaseUrl (RATCHET_MODEL_BASE_URL) for an OpenAI-compatible"
          + " server that needs no key");
    }
    Files.delete(agents.resolve("b.yaml"));
    assertThat(check(printed, new JsonObject().put("modelBaseUrl", "http://127.0.0.1:9/v1"))).as(printed[1]).isZero();
    assertThat(printed[0]).contains("ok: agent 'a'");
  }

  @Test
  void anAgentFileNamedLikeAJavaAgentIsRefusedNamingBothAndNothingOfItIsRegistered() throws Exception {
    Path agents = agentFiles("1-other.yaml", "agent: other\n",
        "2-shop.yaml", "# the shop again\nagent: shop\n");
    Vertx vertx = Vertx.vertx();
    try {
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
          .keyPrefix(REDIS.keyPrefix())));
      await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("t")
          .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
              .handler(inv -> Future.succeededFuture("cancelled")))).build()));
      LoadedAgents loaded = await(AgentFiles.load(vertx, agents, Connections.of(), spec -> null));
      Throwable failure = await(loaded.registerWith(ratchet).transform(ar -> Future.succeededFuture(ar.cause())));
      assertThat(failure).isInstanceOf(AgentFilesException.class);
      assertThat(((AgentFilesException) failure).errors()).map(String::valueOf).containsExactly(
          agents.resolve("2-shop.yaml") + ":2: agent: agent 'shop' is also registered from Java (Ratchet.register)");
      assertThat(ratchet.queries().agents()).containsExactly("shop");
      assertThat(ratchet.queries().catalog("shop").origin()).isEqualTo("java");
      await(ratchet.close());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void checkGroupsProblemsByKindAndTheReportSaysWhatEachDocumentOffersAndWhy() throws Exception {
    Path spec = dir.resolve("tracker.yaml");
    Files.writeString(spec, """
        openapi: 3.0.3
        info: {title: Tracker, version: "2"}
        paths:
          /issues:
            get: {operationId: listIssues, responses: {}}
            post:
              operationId: createIssue
              requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Gone"}}}}
              responses: {}
            trace: {operationId: traceIssues, responses: {}}
        """);
    Path agents = agentFiles("a.yaml", "agent: a\nmaxTurnz: 3\n",
        "b.yaml", "agent: b\ntools:\n  - openapi: " + spec + "\n    connection: nowhere\n    operations: [listIssue]\n");
    Path conf = dir.resolve("ratchet.json");
    Files.writeString(conf, new JsonObject().put("agents", new JsonObject().put("dir", agents.toString())).encode());
    CommandRun run = CommandRun.of(new CheckCommand(), "--config", conf.toString(), "--no-demo", "--report");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.out()).contains(spec + " (Tracker 2): 3 operation(s), 1 offered, 2 refused")
        .contains("  refused 1: $ref '…' points to nothing in the document")
        .contains("  refused 1: TRACE operations are not supported");
    String err = run.err();
    assertThat(err).contains("not valid against the agent-file schema (1):\n  " + agents.resolve("a.yaml")
        + ":2: unknown field 'maxTurnz'");
    assertThat(err).contains("names what does not exist (2):\n  " + agents.resolve("b.yaml")
        + ":4: tools[0].connection: connection 'nowhere' is not configured").contains("  " + agents.resolve("b.yaml")
        + ":5: tools[0].operations[0]: unknown operation 'listIssue' in " + spec + " (did you mean listIssues?)");
  }

  private int check(String[] printed) throws Exception {
    return check(printed, new JsonObject());
  }

  private int check(String[] printed, JsonObject agentSettings) throws Exception {
    Path conf = dir.resolve("ratchet.json");
    Files.writeString(conf, new JsonObject().put("agents", new JsonObject().put("dir", dir.resolve("agents").toString()))
        .put("agent", agentSettings).encode());
    CommandRun run = CommandRun.of(new CheckCommand(), "--config", conf.toString(), "--no-demo");
    printed[0] = run.out();
    printed[1] = run.err();
    return run.code();
  }
}

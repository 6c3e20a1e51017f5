package dev.ratchet.server.config;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolCatalog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agent files over a document of hundreds of operations: {@code all}, tags, globs and
 * {@code exclude} select them; the file renames tools, overrides effect classes and timeouts; an
 * agent offering more tools than model APIs take loads with a warning.
 */
class LargeDocumentAgentFilesTest extends AgentFilesFixture {

  private Path spec;

  @BeforeEach
  void setUp() throws IOException {
    spec = dir.resolve("tracker.json");
    Files.writeString(spec, tracker().encodePrettily());
  }

  /**
   * 150 issue operations (tag Issues), 10 admin ones (tag Admin), a POST search that only reads,
   * an operation whose id is too long for a tool name, and one whose schema reference leads nowhere.
   */
  private static JsonObject tracker() {
    JsonObject paths = new JsonObject();
    for (int i = 0; i < 150; i++) {
      paths.put("/issues" + i, new JsonObject().put("get", op("listIssues" + i, "Issues")));
    }
    for (int i = 0; i < 10; i++) {
      paths.put("/admin" + i, new JsonObject().put("delete", op("purgeProject" + i, "Admin")));
    }
    paths.put("/search", new JsonObject().put("post", op("searchIssues", "Issues")));
    paths.put("/long", new JsonObject().put("get", op("getTheIssueTimelineEventsOfTheRepositoryIncludingCrossReferencedEvents",
        "Timeline")));
    paths.put("/broken", new JsonObject().put("post", op("importIssues", "Issues").put("requestBody", new JsonObject()
        .put("content", new JsonObject().put("application/json", new JsonObject().put("schema",
            new JsonObject().put("$ref", "#/components/schemas/Missing")))))));
    return new JsonObject().put("openapi", "3.0.3").put("info", new JsonObject().put("title", "Tracker")
        .put("version", "1")).put("servers", new JsonArray().add(new JsonObject().put("url", "http://127.0.0.1:1")))
        .put("paths", paths);
  }

  private static JsonObject op(String id, String tag) {
    return new JsonObject().put("operationId", id).put("tags", new JsonArray().add(tag))
        .put("responses", new JsonObject().put("200", new JsonObject().put("description", "ok")));
  }

  private Connections connections(JsonObject config) {
    return Connections.of(Connection.of("tracker", "openapi", config.put("baseUrl", "http://127.0.0.1:1"), Map.of()));
  }

  private LoadedAgents load(String file, Connections connections) throws IOException {
    Files.writeString(agents.resolve("tracker.yaml"), file.formatted(spec));
    return await(AgentFiles.load(vertx, agents, connections, models));
  }

  @Test
  void allWithTagsAndGlobsExcludedOffersTheRestAndLeavesOutWhatCannotBeOfferedWithAWarning() throws IOException {
    LoadedAgents loaded = load("""
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: all
            exclude: ["tag:Admin", "listIssues1?", "listIssues1??"]
        """, connections(new JsonObject()));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, loaded.agents().get(0)));
    List<String> names = catalog.entries().stream().map(e -> e.tool().name()).toList();
    // 150 issues less listIssues10-19 and listIssues100-149, the search and the long one; not the admin ones
    assertThat(names).hasSize(150 - 10 - 50 + 2).contains("tracker_list_issues0", "tracker_search_issues")
        .doesNotContain("tracker_list_issues10", "tracker_list_issues149", "tracker_purge_project0", "tracker_import_issues");
    assertThat(loaded.warnings()).map(String::valueOf).singleElement().asString()
        .startsWith(agents.resolve("tracker.yaml") + ":5: tools[0].operations: 1 operation(s) of " + spec
            + " that the entry selects cannot be offered and are left out (importIssues;");
    await(loaded.close());
  }

  @Test
  void tagsAndGlobsSelectAndAnExactlyNamedOperationThatCannotBeOfferedIsAProblem() throws IOException {
    LoadedAgents loaded = load("""
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: ["tag:Admin", "listIssues14?"]
        """, connections(new JsonObject()));
    assertThat(await(ToolCatalog.resolve(vertx, loaded.agents().get(0))).entries()).hasSize(10 + 10);
    await(loaded.close());

    Files.writeString(agents.resolve("tracker.yaml"), """
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: [importIssues, "tag:Admni", "purge*X"]
        """.formatted(spec));
    assertThat(AgentFileErrors.of(vertx, agents, connections(new JsonObject()), models)).containsExactlyInAnyOrder(
        agents.resolve("tracker.yaml") + ":5: tools[0].operations[0]: operation 'importIssues' cannot be offered"
            + " because it depends on what is not supported: operation 'importIssues': $ref"
            + " '#/components/schemas/Missing' points to nothing in the document (at paths./broken.post.requestBody)",
        agents.resolve("tracker.yaml") + ":5: tools[0].operations[1]: no operation of " + spec
            + " has the tag 'Admni' (did you mean Admin?)",
        agents.resolve("tracker.yaml") + ":5: tools[0].operations[2]: 'purge*X' matches no operation of " + spec);
  }

  @Test
  void anUnknownOperationOfABigDocumentNamesAFewNearMatchesNotTheWholeList() throws IOException {
    Files.writeString(agents.resolve("tracker.yaml"), """
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: [listIssue7]
        """.formatted(spec));
    assertThat(AgentFileErrors.of(vertx, agents, connections(new JsonObject()), models)).containsExactly(
        agents.resolve("tracker.yaml") + ":5: tools[0].operations[0]: unknown operation 'listIssue7' in " + spec
            + " (did you mean listIssues7, listIssues0, listIssues1?)");
  }

  @Test
  void theFileRenamesToolsOverridesEffectAndTimeoutsAndALongNameIsShortenedTheSameEachTime() throws IOException {
    String file = """
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: [searchIssues, listIssues1, listIssues2, purgeProject1,
              getTheIssueTimelineEventsOfTheRepositoryIncludingCrossReferencedEvents]
            rename: { listIssues1: issues }
            effect: { searchIssues: read, purgeProject1: idempotent_write }
            timeouts: { listIssues1: 2500 }
        """;
    LoadedAgents loaded = load(file, connections(new JsonObject().put("timeoutMs", 7000)));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, loaded.agents().get(0)));
    assertThat(catalog.get("issues").tool().timeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(catalog.get("tracker_list_issues2").tool().timeout()).isEqualTo(Duration.ofMillis(7000));
    assertThat(catalog.get("tracker_search_issues").tool().effectClass()).isEqualTo(EffectClass.READ);
    assertThat(catalog.get("tracker_purge_project1").tool().effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    List<String> longNames = catalog.entries().stream().map(e -> e.tool().name())
        .filter(n -> n.startsWith("tracker_get_the_issue")).toList();
    assertThat(longNames).singleElement().asString().hasSizeLessThanOrEqualTo(64).matches("[a-z0-9_]+_[0-9a-f]{8}");
    await(loaded.close());

    LoadedAgents again = load(file, connections(new JsonObject()));
    assertThat(await(ToolCatalog.resolve(vertx, again.agents().get(0))).get(longNames.get(0))).isNotNull();
    await(again.close());
  }

  @Test
  void renamingOntoAnotherToolsNameOrANameModelApisRefuseIsAProblem() throws IOException {
    Files.writeString(agents.resolve("tracker.yaml"), """
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: [listIssues1, listIssues2]
            rename: { listIssues1: tracker_list_issues2, listIssues3: other }
        """.formatted(spec));
    assertThat(AgentFileErrors.of(vertx, agents, connections(new JsonObject()), models)).containsExactly(
        agents.resolve("tracker.yaml") + ":3: tools[0]: tool 'tracker_list_issues2' is named twice (rename one of"
            + " them with 'rename')",
        agents.resolve("tracker.yaml") + ":6: tools[0].rename.listIssues3: operation 'listIssues3' is not among this"
            + " entry's operations (did you mean listIssues1, listIssues2?)");
  }

  @Test
  void anAgentOfferingMoreToolsThanModelApisTakeLoadsWithAWarning() throws IOException {
    LoadedAgents loaded = load("""
        agent: triage
        tools:
          - openapi: %s
            connection: tracker
            operations: ["listIssues*"]
        """, connections(new JsonObject()));
    assertThat(loaded.agents()).hasSize(1);
    assertThat(loaded.warnings()).map(String::valueOf).containsExactly(agents.resolve("tracker.yaml")
        + ":2: tools: agent 'triage' offers 150 tools; common model APIs accept at most 128 in one request (select"
        + " fewer with operations, exclude or tags)");
    await(loaded.close());
  }
}

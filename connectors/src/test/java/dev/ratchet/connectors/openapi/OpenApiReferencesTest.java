package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.impl.ArgumentValidator;
import dev.ratchet.connectors.impl.ToolNames;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * References as real documents write them: JSON Pointers through array indexes, escapes and
 * percent-encoding; files next to the document, nested, each resolved against the file that refers;
 * recursive and shared schemas through {@code $defs}. And tool names model APIs take.
 */
class OpenApiReferencesTest {

  @TempDir
  Path dir;

  private JsonObject input(OpenApiDocument doc, String operationId) {
    OpenApiOperationSpec spec = doc.operations().get(operationId);
    assertThat(spec.problems()).as(operationId).isEmpty();
    return spec.definition().inputSchema();
  }

  @Test
  void pointersGoThroughArrayIndexesEscapesAndPercentEncoding() {
    String yaml = """
        openapi: 3.0.3
        info: {title: Pointers, version: "1"}
        paths:
          /a/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: string, pattern: "^[a-z]+$"}}
            get:
              operationId: first
              requestBody:
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/Named/allOf/1"}
              responses: {}
          /b:
            get:
              operationId: second
              parameters:
                - name: q
                  in: query
                  schema: {$ref: "#/components/schemas/a~1b~0c/properties/deep%20field"}
                - name: id
                  in: query
                  schema: {$ref: "#/paths/~1a~1%7Bid%7D/parameters/0/schema"}
              responses: {}
        components:
          schemas:
            Named:
              allOf:
                - {type: object}
                - {type: object, properties: {title: {type: string}}, required: [title]}
            a/b~c:
              type: object
              properties:
                deep field: {type: integer, minimum: 3}
        """;
    OpenApiDocument doc = OpenApiDocument.parse("p", yaml, "pointers.yaml");
    assertThat(input(doc, "first").getJsonObject("properties").getJsonObject("body")).isEqualTo(new JsonObject()
        .put("type", "object").put("properties", new JsonObject().put("title", new JsonObject().put("type", "string")))
        .put("required", new JsonArray().add("title")));
    JsonObject second = input(doc, "second").getJsonObject("properties");
    assertThat(second.getJsonObject("q")).isEqualTo(new JsonObject().put("type", "integer").put("minimum", 3));
    assertThat(second.getJsonObject("id").getString("pattern")).isEqualTo("^[a-z]+$");
  }

  @Test
  void filesNextToTheDocumentAreReadAndTheirReferencesResolveAgainstThemselves() throws IOException {
    Files.createDirectories(dir.resolve("schemas/common"));
    Files.createDirectories(dir.resolve("paths"));
    Files.writeString(dir.resolve("api.yaml"), """
        openapi: 3.0.3
        info: {title: Pets, version: "1"}
        paths:
          /pets:
            $ref: "./paths/pets.yaml"
          /pets/{petId}:
            get:
              $ref: "paths/get-pet.yaml"
          /tags:
            post:
              operationId: tagPet
              requestBody:
                content: {application/json: {schema: {$ref: "schemas/pet.yaml#/Tag"}}}
              responses: {}
        components:
          schemas:
            Id: {type: string, format: uuid}
        """);
    // a path item in its own file, whose references are relative to that file
    Files.writeString(dir.resolve("paths/pets.yaml"), """
        post:
          operationId: createPet
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "../schemas/pet.yaml#/Pet"}
          responses: {}
        """);
    // an operation in its own file (DigitalOcean writes them so)
    Files.writeString(dir.resolve("paths/get-pet.yaml"), """
        operationId: getPet
        parameters:
          - name: petId
            in: path
            required: true
            schema: {$ref: "../api.yaml#/components/schemas/Id"}
        responses: {}
        """);
    Files.writeString(dir.resolve("schemas/pet.yaml"), """
        Pet:
          type: object
          required: [name]
          properties:
            name: {type: string}
            owner: {$ref: "common/owner.json"}
        Tag:
          type: object
          properties: {$ref: "#/TagProperties"}
        TagProperties:
          label: {type: string}
        """);
    Files.writeString(dir.resolve("schemas/common/owner.json"), """
        {"type": "object", "properties": {"email": {"type": "string", "format": "email"},
          "id": {"$ref": "../../api.yaml#/components/schemas/Id"}}}
        """);
    OpenApiDocument doc = OpenApiDocument.load("pets", dir.resolve("api.yaml"));
    assertThat(doc.warnings()).isEmpty();
    // a map of properties kept elsewhere (DigitalOcean writes some so)
    assertThat(input(doc, "tagPet").getJsonObject("properties").getJsonObject("body").getJsonObject("properties")
        .getJsonObject("label")).isEqualTo(new JsonObject().put("type", "string"));
    JsonObject pet = input(doc, "createPet").getJsonObject("properties").getJsonObject("body");
    assertThat(pet.getJsonArray("required")).containsExactly("name");
    JsonObject owner = pet.getJsonObject("properties").getJsonObject("owner").getJsonObject("properties");
    assertThat(owner.getJsonObject("email").getString("format")).isEqualTo("email");
    assertThat(owner.getJsonObject("id")).isEqualTo(new JsonObject().put("type", "string").put("format", "uuid"));
    assertThat(input(doc, "getPet").getJsonObject("properties").getJsonObject("petId").getString("format"))
        .isEqualTo("uuid");
  }

  @Test
  void aMissingFileOrAUrlOrADocumentReadFromTextIsReportedNotDropped() throws IOException {
    String text = """
        openapi: 3.0.3
        info: {title: Refs, version: "1"}
        paths:
          /a:
            get:
              operationId: missingFile
              parameters: [{name: x, in: query, schema: {$ref: "./nowhere.yaml#/X"}}]
              responses: {}
          /b:
            get:
              operationId: url
              parameters: [{name: x, in: query, schema: {$ref: "https://example.com/s.yaml#/X"}}]
              responses: {}
        """;
    Files.writeString(dir.resolve("refs.yaml"), text);
    OpenApiDocument fromFile = OpenApiDocument.load("r", dir.resolve("refs.yaml"));
    assertThat(fromFile.problems("missingFile")).map(OpenApiWarning::message).singleElement().asString()
        .contains("'./nowhere.yaml#/X'").contains("nowhere.yaml cannot be read");
    assertThat(fromFile.problems("url")).map(OpenApiWarning::message).singleElement().asString()
        .contains("$ref to a URL");
    OpenApiDocument fromText = OpenApiDocument.parse("r", text, "refs.yaml");
    assertThat(fromText.problems("missingFile")).map(OpenApiWarning::message).singleElement().asString()
        .contains("needs the document to be read from a file");
  }

  @Test
  void recursiveAndSharedSchemasAreDefinedOnceUnderDefsAndArgumentsAreCheckedThroughThem() {
    String yaml = """
        openapi: 3.0.3
        info: {title: Trees, version: "1"}
        paths:
          /trees:
            post:
              operationId: plantTree
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        root: {$ref: "#/components/schemas/Node"}
                        home: {$ref: "#/components/schemas/Address"}
                        work: {$ref: "#/components/schemas/Address"}
              responses: {}
        components:
          schemas:
            Address: {type: object, properties: {city: {type: string}}, required: [city]}
            Node:
              type: object
              nullable: true
              properties:
                label: {type: string}
                children: {type: array, items: {$ref: "#/components/schemas/Node"}}
        """;
    OpenApiDocument doc = OpenApiDocument.parse("t", yaml, "trees.yaml");
    JsonObject input = input(doc, "plantTree");
    assertThat(MetaSchema.problem(input)).isNull();
    JsonObject defs = input.getJsonObject("$defs");
    assertThat(defs.fieldNames()).containsExactlyInAnyOrder("Node", "Address");
    assertThat(defs.getJsonObject("Node").getJsonObject("properties").getJsonObject("children")
        .getJsonObject("items")).isEqualTo(new JsonObject().put("$ref", "#/$defs/Node"));
    // 3.0's nullable is converted inside $defs too
    assertThat(defs.getJsonObject("Node").getValue("type")).isEqualTo(new JsonArray().add("object").add("null"));
    JsonObject body = input.getJsonObject("properties").getJsonObject("body").getJsonObject("properties");
    assertThat(body.getJsonObject("home").getJsonArray("required")).containsExactly("city");
    assertThat(body.getJsonObject("work")).isEqualTo(new JsonObject().put("$ref", "#/$defs/Address"));

    ArgumentValidator arguments = new ArgumentValidator(input);
    JsonObject tree = new JsonObject().put("label", "a").put("children", new JsonArray()
        .add(new JsonObject().put("label", "b").put("children", new JsonArray().add(new JsonObject().put("label", 7)))));
    assertThat(arguments.problem(new JsonObject().put("body", new JsonObject().put("root", tree))))
        .contains("children");
    assertThat(arguments.problem(new JsonObject().put("body", new JsonObject().put("work", new JsonObject()))))
        .contains("city");
    tree.getJsonArray("children").getJsonObject(0).getJsonArray("children").getJsonObject(0).put("label", "c");
    assertThat(arguments.problem(new JsonObject().put("body", new JsonObject().put("root", tree)))).isNull();
  }

  @Test
  void callbacksLinksAndWebhooksAreIgnoredWithANoteAndNeverRefuseAnOperation() {
    String yaml = """
        openapi: 3.1.0
        info: {title: Hooks, version: "1"}
        webhooks:
          orderShipped: {post: {responses: {"200": {description: ok}}}}
        paths:
          /subscriptions:
            post:
              operationId: subscribe
              callbacks:
                shipped:
                  "{$request.body#/url}": {post: {responses: {"200": {description: ok}}}}
              responses:
                "201":
                  description: created
                  links:
                    GetSubscription: {operationId: getSubscription, parameters: {id: "$response.body#/id"}}
        """;
    OpenApiDocument doc = OpenApiDocument.parse("h", yaml, "hooks.yaml");
    assertThat(doc.problems("subscribe")).isEmpty();
    assertThat(doc.warnings()).allMatch(OpenApiWarning::offered).map(OpenApiWarning::message)
        .anyMatch(m -> m.startsWith("webhooks are requests the API sends"))
        .anyMatch(m -> m.startsWith("callbacks are requests the API sends"))
        .anyMatch(m -> m.startsWith("response links describe requests"));
    assertThat(OpenApiReport.of(doc).offered()).isEqualTo(1);
    // the report counts by reason: names and sizes left out, a version kept
    assertThat(OpenApiReport.reason("its input schema is 123456 bytes, over 100 KB; the model is sent all of it"))
        .isEqualTo("its input schema is N bytes, over N KB; the model is sent all of it");
    assertThat(OpenApiReport.reason("its input schema is not valid JSON Schema 2020-12 (at '/x': bad)"))
        .isEqualTo("its input schema is not valid JSON Schema 2020-12");
  }

  @Test
  void toolNamesOverSixtyFourCharactersAreShortenedTheSameWayEveryTimeAndStayDistinct() {
    String a = ToolNames.toolName("github", "getTheIssueTimelineEventsOfTheRepositoryIncludingCrossReferencedEventsA");
    String b = ToolNames.toolName("github", "getTheIssueTimelineEventsOfTheRepositoryIncludingCrossReferencedEventsB");
    assertThat(a).hasSizeLessThanOrEqualTo(64).matches("github_get_the_issue_timeline_events_of_the_repository_[0-9a-f]{8}");
    assertThat(b).hasSizeLessThanOrEqualTo(64).isNotEqualTo(a);
    assertThat(ToolNames.toolName("github", "getTheIssueTimelineEventsOfTheRepositoryIncludingCrossReferencedEventsA"))
        .isEqualTo(a);
    assertThat(ToolNames.toolName("github", "issues/list-for-repo")).isEqualTo("github_issues_list_for_repo");
    assertThat(ToolNames.valid(ToolNames.toolName("x", "日本語"))).isTrue();
  }
}

package dev.ratchet.server.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ratchet.verticles.RatchetConfig;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kubernetes manifests of {@code deploy/kubernetes} (docs/DEPLOY.md) parse, and agree with the
 * code: the probes ask the health routes the HTTP server mounts, on the port the members serve
 * with the configuration and environment the manifests give them; the members list names every
 * member of the StatefulSet on the port Hazelcast listens on; the grace period outlasts the
 * hand-over; every setting of the configuration exists, and every variable is documented.
 */
class DeployManifestsTest {

  private static final Path DIR = Path.of("../deploy/kubernetes");

  @TempDir
  Path tmp;

  @Test
  void theMembersProbesAndClusterSettingsMatchWhatRunServesAndReads() throws Exception {
    Map<String, JsonNode> ratchet = byKindAndName(DIR.resolve("ratchet.yaml"));
    JsonNode sts = ratchet.get("StatefulSet/ratchet");
    JsonNode pod = sts.at("/spec/template/spec");
    JsonNode container = pod.at("/containers/0");
    assertThat(sts.at("/spec/replicas").asInt()).isGreaterThanOrEqualTo(3);

    List<String> args = strings(container.get("args"));
    assertThat(args).startsWith("run").contains("--cluster", "--no-demo");
    Path configFile = Path.of(args.get(args.indexOf("--config") + 1));
    JsonNode mount = find(container.get("volumeMounts"), m -> configFile.startsWith(m.get("mountPath").asText()));
    JsonNode volume = find(pod.get("volumes"), v -> v.get("name").asText().equals(mount.get("name").asText()));
    String configMapText = ratchet.get("ConfigMap/" + volume.at("/configMap/name").asText()).at("/data")
        .get(configFile.getFileName().toString()).asText();
    JsonObject fromFile = new JsonObject(configMapText);
    assertThat(leaves(fromFile, "")).isSubsetOf(leaves(RatchetConfig.defaults(), ""));

    Map<String, String> env = new HashMap<>();
    for (JsonNode variable : container.get("env")) {
      String name = variable.get("name").asText();
      env.put(name, variable.has("value") ? variable.get("value").asText() : "redis://from-a-secret:6379");
      if (name.startsWith("RATCHET_")) {
        assertThat(Files.readString(Path.of("../docs/CONFIGURATION.md"))).as("%s is documented", name).contains("`" + name + "`");
      }
    }
    Path file = tmp.resolve("ratchet.json");
    Files.writeString(file, configMapText);
    JsonObject effective = RatchetConfig.load(file, env);

    Map<String, Integer> ports = new HashMap<>();
    container.get("ports").forEach(p -> ports.put(p.get("name").asText(), p.get("containerPort").asInt()));
    assertThat(ports.get("http")).isEqualTo(effective.getJsonObject("http").getInteger("port"));
    assertThat(effective.getJsonObject("http").getString("host")).isEqualTo("0.0.0.0");
    String routes = Files.readString(Path.of("../verticles/src/main/java/dev/ratchet/verticles/http/impl/HealthRoutes.java"));
    for (String[] probe : new String[][] {{"readinessProbe", "/health/ready"}, {"livenessProbe", "/health/live"},
        {"startupProbe", "/health/live"}}) {
      JsonNode get = container.at("/" + probe[0] + "/httpGet");
      assertThat(get.get("path").asText()).as(probe[0]).isEqualTo(probe[1]);
      assertThat(routes).contains("router.get(\"" + probe[1] + "\")");
      assertThat(ports.get(get.get("port").asText())).as(probe[0]).isEqualTo(ports.get("http"));
    }

    JsonObject cluster = effective.getJsonObject("cluster");
    int hazelcast = cluster.getInteger("port");
    assertThat(ports.get("hazelcast")).isEqualTo(hazelcast);
    JsonNode members = ratchet.get("Service/" + sts.at("/spec/serviceName").asText());
    assertThat(members.at("/spec/clusterIP").asText()).isEqualTo("None");
    assertThat(members.at("/spec/publishNotReadyAddresses").asBoolean()).isTrue();
    assertThat(members.at("/spec/ports/0/port").asInt()).isEqualTo(hazelcast);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < sts.at("/spec/replicas").asInt(); i++) {
      expected.add("ratchet-" + i + "." + sts.at("/spec/serviceName").asText() + ":" + hazelcast);
    }
    assertThat(cluster.getJsonArray("members").getList()).containsExactlyElementsOf(expected);
    assertThat(pod.get("terminationGracePeriodSeconds").asLong() * 1000)
        .isGreaterThan(cluster.getLong("leaveTimeoutMillis") + 10_000);
    assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(10001);

    JsonNode http = ratchet.get("Service/ratchet");
    assertThat(http.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
  }

  @Test
  void theJournalsRedisKeepsEveryStepAndEvictsNone() throws Exception {
    Map<String, JsonNode> redis = byKindAndName(DIR.resolve("redis.yaml"));
    List<String> conf = redis.get("ConfigMap/ratchet-redis").at("/data/redis.conf").asText().lines()
        .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    assertThat(conf).contains("appendonly yes", "appendfsync always", "maxmemory-policy noeviction",
        "hash-max-listpack-value 1024");
    Map<String, JsonNode> secrets = byKindAndName(DIR.resolve("secrets.example.yaml"));
    JsonNode secret = secrets.get("Secret/ratchet-secrets").get("stringData");
    assertThat(secret.get("redis-url").asText())
        .contains(":" + secret.get("redis-password").asText() + "@" + redis.get("Service/ratchet-redis").at("/metadata/name").asText()
            + ":" + redis.get("Service/ratchet-redis").at("/spec/ports/0/port").asInt());
    assertThat(secret.get("admin-password").asText().length()).isGreaterThanOrEqualTo(12);
  }

  @Test
  void deployMdShowsTheManifestsAsTheyAreInTheRepository() throws Exception {
    String deploy = Files.readString(Path.of("../docs/DEPLOY.md"));
    for (String name : List.of("ratchet.yaml", "redis.yaml", "secrets.example.yaml")) {
      assertThat(blockAfter(deploy, "deploy/kubernetes/" + name)).as(name)
          .isEqualTo(Files.readString(DIR.resolve(name)).strip());
    }
  }

  /** The fenced YAML block that follows the first mention of {@code file} in a heading or text. */
  private static String blockAfter(String markdown, String file) {
    int at = markdown.indexOf("`" + file + "`");
    assertThat(at).as("DEPLOY.md names %s", file).isNotNegative();
    Matcher block = Pattern.compile("```yaml\n(.*?)\n```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find(at)).as("a yaml block after %s", file).isTrue();
    return block.group(1).strip();
  }

  private static Map<String, JsonNode> byKindAndName(Path file) throws Exception {
    Map<String, JsonNode> out = new HashMap<>();
    YAMLMapper yaml = new YAMLMapper();
    try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        out.put(doc.get("kind").asText() + "/" + doc.at("/metadata/name").asText(), doc);
      }
    }
    return out;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static JsonNode find(JsonNode array, java.util.function.Predicate<JsonNode> test) {
    for (JsonNode n : array) {
      if (test.test(n)) {
        return n;
      }
    }
    throw new AssertionError("none of " + array + " matches");
  }

  private static List<String> leaves(JsonObject json, String prefix) {
    List<String> out = new ArrayList<>();
    for (String key : json.fieldNames()) {
      Object value = json.getValue(key);
      if (value instanceof JsonObject nested) {
        out.addAll(leaves(nested, prefix + key + "."));
      } else {
        out.add(prefix + key);
      }
    }
    return out;
  }
}

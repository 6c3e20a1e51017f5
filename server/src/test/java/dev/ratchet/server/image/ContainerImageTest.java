package dev.ratchet.server.image;

import dev.ratchet.host.FreePorts;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.server.ChildOutput;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The container image that {@code mvn -B -Pimage -pl server -am package -DskipTests} writes to
 * {@code server/target/ratchet-image.tar} (docs/DEPLOY.md): its configuration as a container runtime
 * reads it, its layers' files, and its entrypoint started in a root filesystem unpacked from its
 * layers, as its user, in a mount and PID namespace of its own with /proc, /dev's four devices and a
 * fresh /data volume (once on a read-only root with a tmpfs at /tmp), until {@code /health/ready}
 * answers 200 and SIGTERM stops it. Not a container runtime: no network namespace, cgroup limits,
 * seccomp nor capabilities are applied. Skips when the image was not built, and the start when the
 * test does not run as root with {@code unshare}.
 */
class ContainerImageTest {

  private static final Path IMAGE = Path.of("target/ratchet-image.tar");

  @TempDir
  static Path work;

  private static JsonObject config;
  private static List<String> layers;
  private static Path root;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void unpack() throws Exception {
    assumeTrue(Files.isRegularFile(IMAGE), "no " + IMAGE.toAbsolutePath()
        + ": build the image first with mvn -B -Pimage -pl server -am package -DskipTests");
    Path image = work.resolve("image");
    Files.createDirectories(image);
    command(List.of("tar", "-xf", IMAGE.toAbsolutePath().toString(), "-C", image.toString()), 120);
    JsonObject manifest = new JsonArray(Files.readString(image.resolve("manifest.json"))).getJsonObject(0);
    config = new JsonObject(Files.readString(image.resolve(manifest.getString("Config"))));
    layers = new ArrayList<>();
    root = work.resolve("root");
    Files.createDirectories(root);
    for (Object layer : manifest.getJsonArray("Layers")) {
      Path file = image.resolve((String) layer);
      layers.add(file.toString());
      command(List.of("tar", "-xzf", file.toString(), "-C", root.toString()), 120);
    }
  }

  @Test
  void runsAsTheNonRootUserRatchetWithTheDataDirectoryAsAVolumeAndServesHttpOn8080() throws Exception {
    JsonObject container = config.getJsonObject("config");
    assertThat(container.getString("User")).isEqualTo("10001:10001");
    assertThat(Files.readAllLines(root.resolve("etc/passwd"))).contains("ratchet:x:10001:10001:Ratchet:/data:/sbin/nologin");
    assertThat(Files.readAllLines(root.resolve("etc/group"))).contains("ratchet:x:10001:");
    assertThat(container.getJsonObject("Volumes").fieldNames()).containsExactly("/data");
    assertThat(container.getJsonObject("ExposedPorts").fieldNames()).contains("8080/tcp", "5701/tcp");
    assertThat(container.getJsonArray("Entrypoint").getList()).startsWith("/opt/java/bin/java")
        .endsWith("-cp", "@/opt/ratchet/app/jib-classpath-file", "dev.ratchet.server.Main");
    assertThat(container.getJsonArray("Cmd").getList()).containsExactly("run");
    assertThat(container.getString("WorkingDir")).isEqualTo("/opt/ratchet");
    assertThat(container.getJsonArray("Env").getList()).contains("RATCHET_DATA_DIR=/data");
    assertThat(config.getString("os")).isEqualTo("linux");
    assertThat(config.getString("architecture")).isEqualTo("amd64");
    // the volume's directory belongs to ratchet, so that a runtime's new volume does too; /tmp is for everyone
    assertThat(listing(layers.get(0))).anyMatch(line -> line.startsWith("drwxr-x--- 10001/10001") && line.endsWith(" ./data/"))
        .anyMatch(line -> line.startsWith("drwxrwxrwt 0/0") && line.endsWith(" ./tmp/"));
  }

  @Test
  void carriesItsJavaRuntimeTheLibrariesItLoadsTheirLicencesTheAgentFilesAndTheContainerConfiguration() throws Exception {
    assertThat(root.resolve("opt/java/bin/java")).isExecutable();
    assertThat(root.resolve("opt/ratchet/app/jib-classpath-file")).isRegularFile();
    assertThat(root.resolve("etc/ssl/certs/ca-certificates.crt")).isNotEmptyFile();
    for (String lib : List.of("ld-linux-x86-64.so.2", "libc.so.6", "libz.so.1", "libstdc++.so.6", "libgcc_s.so.1",
        "libssl.so.3")) {
      assertThat(root.resolve("usr/lib/x86_64-linux-gnu/" + lib)).isRegularFile();
    }
    List<String> packages = Files.readAllLines(root.resolve("usr/share/doc/PACKAGES"));
    for (String pkg : packages.subList(1, packages.size())) {
      assertThat(root.resolve("usr/share/doc/" + pkg.split(" ")[0] + "/copyright")).isNotEmptyFile();
    }
    assertThat(packages).anyMatch(p -> p.startsWith("libc6 ")).anyMatch(p -> p.startsWith("zlib1g "))
        .anyMatch(p -> p.startsWith("libssl3 "));
    assertThat(root.resolve("opt/ratchet/LICENSE")).isRegularFile();
    assertThat(root.resolve("opt/ratchet/conf/agents/demo.yaml")).isRegularFile();
    JsonObject settings = new JsonObject(Files.readString(root.resolve("opt/ratchet/conf/ratchet.json")));
    assertThat(settings.getJsonObject("http").getString("host")).isEqualTo("0.0.0.0");
    assertThat(settings.getJsonObject("retention").getJsonObject("archive").getString("dir")).startsWith("/data/");
  }

  @Test
  void onAReadOnlyRootTheEntrypointBecomesReadyWithTheRedisOfRatchetRedisUrlAndStopsOnSigterm() throws Exception {
    assumeStartable();
    RedisServerProcess redis = RedisServerProcess.startTemporary("ratchet-image-test-redis", "everysec");
    try {
      List<String> output = startReadyAndStop(Map.of("RATCHET_REDIS_URL", redis.url()), "with-url", true);
      assertThat(output).anyMatch(line -> line.contains("journal at " + redis.url()))
          .noneMatch(line -> line.contains("Started embedded Redis"));
    } finally {
      redis.close();
    }
  }

  @Test
  void withoutARedisUrlTheEntrypointJournalsToTheRedisOfTheJarWithItsAofInTheVolume() throws Exception {
    assumeStartable();
    List<String> output = startReadyAndStop(Map.of(), "embedded", false);
    assertThat(output).anyMatch(line -> line.startsWith("Started embedded Redis") && line.contains("data in /data/redis"));
    assertThat(work.resolve("volume-embedded/redis/appendonlydir").toFile().exists()
        || work.resolve("volume-embedded/redis/appendonly.aof").toFile().exists()).isTrue();
  }

  private static void assumeStartable() throws IOException {
    assumeTrue(Files.isRegularFile(IMAGE), "no image");
    Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    assumeTrue(Integer.valueOf(0).equals(uid), "starting the image's entrypoint needs root (unshare, chroot)");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "starting the image's entrypoint needs /usr/bin/unshare");
  }

  /**
   * Starts the image's entrypoint and command as a runtime would, with the image's environment and
   * {@code env}, a fresh volume at /data, waits for {@code /health/ready}, then stops it with SIGTERM;
   * {@code readOnly}: its root filesystem read-only and a tmpfs at /tmp, as deploy/kubernetes runs it.
   */
  private List<String> startReadyAndStop(Map<String, String> env, String name, boolean readOnly) throws Exception {
    JsonObject container = config.getJsonObject("config");
    Path volume = work.resolve("volume-" + name);
    Files.createDirectories(volume);
    Files.setPosixFilePermissions(volume, PosixFilePermissions.fromString("rwxr-x---"));
    String[] user = container.getString("User").split(":");
    command(List.of("chown", container.getString("User"), volume.toString()), 10);
    for (String device : List.of("null", "zero", "random", "urandom")) {
      Files.createDirectories(root.resolve("dev"));
      if (!Files.exists(root.resolve("dev/" + device))) {
        Files.createFile(root.resolve("dev/" + device));
      }
    }
    Files.createDirectories(root.resolve("proc"));
    int port = FreePorts.next();
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/unshare", "--mount", "--pid", "--fork", "--kill-child",
        "/bin/sh", "-c", String.join("; ",
            "set -e",
            "mount --bind \"$1\" \"$1\"",
            "for d in null zero random urandom; do mount --bind /dev/$d \"$1/dev/$d\"; done",
            "mount --bind \"$2\" \"$1/data\"",
            "mount -t proc proc \"$1/proc\"",
            "if [ \"$6\" = read-only ]; then mount -t tmpfs -o mode=1777 tmpfs \"$1/tmp\"; mount -o remount,bind,ro \"$1\"; fi",
            "root=$1 wd=$3 uid=$4 gid=$5",
            "shift 6",
            "exec /usr/bin/unshare --root=\"$root\" --wd=\"$wd\" --setgid \"$gid\" --setuid \"$uid\" \"$@\""),
        "image-start", root.toString(), volume.toString(), container.getString("WorkingDir"), user[0], user[1],
        readOnly ? "read-only" : "writable"));
    container.getJsonArray("Entrypoint").forEach(a -> cmd.add((String) a));
    container.getJsonArray("Cmd").forEach(a -> cmd.add((String) a));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().clear();
    for (Object variable : container.getJsonArray("Env")) {
      String[] kv = ((String) variable).split("=", 2);
      pb.environment().put(kv[0], kv[1]);
    }
    pb.environment().put("RATCHET_HTTP_PORT", String.valueOf(port));
    pb.environment().put("RATCHET_SHOP_PORT", String.valueOf(FreePorts.next()));
    pb.environment().putAll(env);
    List<String> output = Collections.synchronizedList(new ArrayList<>());
    Process started = pb.start();
    ChildOutput.collect(started, output, "image-" + name);
    try {
      HttpResponse<String> ready = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      while (ready == null || ready.statusCode() != 200) {
        assertThat(started.isAlive()).as("the entrypoint exited:\n%s", String.join("\n", output)).isTrue();
        assertThat(System.nanoTime()).as("not ready within 180 s:\n%s", String.join("\n", output)).isLessThan(deadline);
        try {
          ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
              .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
          ready = null;
        }
        if (ready == null || ready.statusCode() != 200) {
          Thread.sleep(500);
        }
      }
      assertThat(new JsonObject(ready.body()).getString("status")).isEqualTo("READY");
      ProcessHandle java = started.toHandle().children().findFirst().orElseThrow();
      assertThat(Files.readAllLines(Path.of("/proc", String.valueOf(java.pid()), "status")))
          .anyMatch(line -> line.matches("Uid:\\s+10001\\s+10001\\s+10001\\s+10001"));
      java.destroy();
      assertThat(started.waitFor(60, TimeUnit.SECONDS)).as("still running 60 s after SIGTERM:\n%s",
          String.join("\n", output)).isTrue();
      return new ArrayList<>(output);
    } finally {
      started.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static List<String> listing(String layer) throws Exception {
    return command(List.of("tar", "--numeric-owner", "-tvzf", layer), 60);
  }

  private static List<String> command(List<String> cmd, int seconds) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    // tar and chown on local files end by themselves; the wait below bounds them all the same
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).as("%s did not end within %d s", cmd, seconds).isTrue();
    assertThat(p.exitValue()).as("%s: %s", cmd, output).isZero();
    return output.lines().toList();
  }
}

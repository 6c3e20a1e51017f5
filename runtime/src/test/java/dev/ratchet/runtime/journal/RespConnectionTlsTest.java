package dev.ratchet.runtime.journal;

import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SelfSignedCertificate;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The journal's own connection to a {@code rediss://} URL speaks TLS, and trusts only what its TLS options trust. */
class RespConnectionTlsTest {

  private Vertx vertx;
  private Process redis;
  private Path dir;
  private int port;
  private SelfSignedCertificate certificate;
  private ContextInternal context;
  private NetClient net;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    dir = Files.createTempDirectory("ratchet-tls-redis");
    certificate = SelfSignedCertificate.create("localhost");
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    redis = new ProcessBuilder(RedisServerProcess.findBinary(), "--port", "0", "--tls-port", String.valueOf(port),
        "--bind", "127.0.0.1", "--tls-cert-file", certificate.certificatePath(),
        "--tls-key-file", certificate.privateKeyPath(), "--tls-auth-clients", "no", "--save", "", "--appendonly", "no",
        "--dir", dir.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    long deadline = System.currentTimeMillis() + 10_000;
    while (!Files.readString(dir.resolve("redis.log")).contains("Ready to accept connections")) {
      assumeTrue(redis.isAlive(), "this redis-server does not speak TLS: " + Files.readString(dir.resolve("redis.log")));
      assertThat(System.currentTimeMillis()).as("redis-server ready within 10 s").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @AfterEach
  void stop() throws Exception {
    if (net != null) {
      await(net.close());
    }
    await(vertx.close());
    redis.destroy();
    redis.waitFor(10, TimeUnit.SECONDS);
    certificate.delete();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private Future<RespConnection> open(ClientSSLOptions tls) {
    net = vertx.createNetClient(new NetClientOptions());
    context = (ContextInternal) vertx.getOrCreateContext();
    Promise<RespConnection> opened = Promise.promise();
    context.runOnContext(v -> RespConnection.open(net, tls, RedisEndpoint.parse("rediss://localhost:" + port), context)
        .onComplete(opened));
    return opened.future();
  }

  @Test
  void aRedissUrlRunsTheJournalsRequestsOverTls() {
    ClientSSLOptions trusting = new ClientSSLOptions().setHostnameVerificationAlgorithm("")
        .setTrustOptions(new PemTrustOptions().addCertPath(certificate.certificatePath()));
    RespConnection connection = await(open(trusting));

    Promise<Response> reply = Promise.promise();
    context.runOnContext(v -> connection.send(new RespRequest(Command.EVAL, "EVAL",
        new Object[] {"return 'over tls'", 0L}), context).onComplete(reply));

    assertThat(await(reply.future()).toString()).isEqualTo("over tls");
  }

  @Test
  void aServerWhoseCertificateIsNotTrustedIsRefused() {
    Throwable refused = failure(open(new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS")));

    assertThat(refused).isNotNull();
  }
}

package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.ratchet.connectors.testing.Invocations.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answer to a request is read however late its caller looks at it: a provider on the same
 * machine answers in full before a busy caller's thread has attached anything to the exchange.
 */
class ExchangeTest {

  private Vertx vertx;
  private HttpServer server;
  private final Promise<Void> answered = Promise.promise();

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    server = await(vertx.createHttpServer().requestHandler(req -> req.response().end("PNG")
        .onComplete(answered)).listen(0, "127.0.0.1"));
  }

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  @Test
  void aResponseThatArrivedWholeBeforeTheCallerLookedIsStillRead() {
    HttpClient client = vertx.createHttpClient();
    HttpClientRequest request = await(client.request(new RequestOptions().setMethod(HttpMethod.GET)
        .setAbsoluteURI("http://127.0.0.1:" + server.actualPort() + "/files/logo.png")));
    Future<Buffer> read = Exchange.send(request, null, HttpClientResponse::body);
    // the caller comes back only once the provider has written its whole answer
    await(answered.future());
    assertThat(await(read).toString()).isEqualTo("PNG");
  }

  @Test
  void aRequestWithABodyIsSentWholeAndItsAnswerRead() {
    Promise<Buffer> received = Promise.promise();
    HttpServer echo = await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      received.tryComplete(b);
      req.response().end(b);
    })).listen(0, "127.0.0.1"));
    HttpClientRequest request = await(vertx.createHttpClient().request(new RequestOptions()
        .setMethod(HttpMethod.POST).setAbsoluteURI("http://127.0.0.1:" + echo.actualPort() + "/upload")));
    Future<Buffer> read = Exchange.send(request, Buffer.buffer("part"), HttpClientResponse::body);
    assertThat(await(received.future()).toString()).isEqualTo("part");
    assertThat(await(read).toString()).isEqualTo("part");
  }
}

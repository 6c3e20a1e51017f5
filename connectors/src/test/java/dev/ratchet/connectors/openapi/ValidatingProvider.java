package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestUtils;
import io.vertx.openapi.validation.RequestValidator;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A local API provider that records every request exactly as it arrived and, when given its
 * document, checks each one with Vert.x's own OpenAPI request validator (vertx-openapi), code
 * independent of the connector: a request the validator refuses is answered 400 with its reason.
 * Files to download are served under {@code /files/}.
 */
final class ValidatingProvider implements AutoCloseable {

  /** One request as it arrived: the request line's target, the headers and the raw body. */
  record Received(String method, String uri, MultiMap headers, Buffer body, String validation) {
  }

  private final Vertx vertx;
  private final HttpServer server;
  private final RequestValidator validator;
  private final OpenAPIContract contract;
  final List<Received> received = new CopyOnWriteArrayList<>();

  /** {@code document} null: record only, for what vertx-openapi cannot read. */
  ValidatingProvider(Vertx vertx, JsonObject document) throws Exception {
    this.vertx = vertx;
    this.contract = document == null ? null : OpenAPIContract.from(vertx, document).toCompletionStage()
        .toCompletableFuture().get(20, TimeUnit.SECONDS);
    this.validator = contract == null ? null : RequestValidator.create(vertx, contract);
    this.server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  String hostPort() {
    return "127.0.0.1:" + server.actualPort();
  }

  Received last() {
    return received.get(received.size() - 1);
  }

  private void handle(HttpServerRequest req) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(req.headers());
    req.body().onSuccess(body -> {
      if (req.path().startsWith("/files/")) {
        req.response().putHeader("Content-Type", "image/png")
            .end(Buffer.buffer(new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
        return;
      }
      validate(req, body).onComplete(v -> {
        String problem = v.succeeded() ? null : v.cause().getMessage();
        received.add(new Received(req.method().name(), req.uri(), headers, body, problem));
        if (problem != null) {
          req.response().setStatusCode(400).end(new JsonObject().put("validator", problem).encode());
        } else {
          req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
              .put("validated", contract != null).encode());
        }
      });
    });
  }

  private Future<Void> validate(HttpServerRequest req, Buffer body) {
    if (validator == null) {
      return Future.succeededFuture();
    }
    try {
      return validateWithContract(req, body);
    } catch (RuntimeException e) {
      // the validator throwing (rather than failing its future) must answer, not leave the call hanging
      return Future.failedFuture(e);
    }
  }

  private Future<Void> validateWithContract(HttpServerRequest req, Buffer body) {
    Operation op = contract.findOperation(req.path(), req.method());
    if (op == null) {
      return Future.failedFuture(new IllegalStateException("no operation for " + req.method() + " " + req.path()));
    }
    return RequestUtils.extract(req, op, () -> Future.succeededFuture(body))
        .compose(request -> validator.validate(request, op.getOperationId())).mapEmpty();
  }

  @Override
  public void close() {
    await(server.close());
  }
}

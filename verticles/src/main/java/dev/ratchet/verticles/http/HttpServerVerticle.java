package dev.ratchet.verticles.http;

import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.http.impl.ApprovalRoutes;
import dev.ratchet.verticles.http.impl.AuthHandler;
import dev.ratchet.verticles.http.impl.Authenticator;
import dev.ratchet.verticles.http.impl.CatalogRoutes;
import dev.ratchet.verticles.http.impl.EventStream;
import dev.ratchet.verticles.http.impl.HealthRoutes;
import dev.ratchet.verticles.http.impl.LoginRoutes;
import dev.ratchet.verticles.http.impl.MessageRoutes;
import dev.ratchet.verticles.http.impl.RatchetMetrics;
import dev.ratchet.verticles.http.impl.Replies;
import dev.ratchet.verticles.http.impl.SessionAccess;
import dev.ratchet.verticles.http.impl.SessionRoutes;
import dev.ratchet.verticles.http.impl.TurnRoutes;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.SessionHandler;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.ext.web.sstore.LocalSessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ratchet's HTTP API and approvals dashboard on one port. Deploy with the runtime it serves:
 * <pre>{@code vertx.deployVerticle(new HttpServerVerticle(ratchet, HttpOptions.fromConfig(config.getJsonObject("http"))));}</pre>
 * Everything but {@code /health} and the login page needs a login (dashboard) or a bearer token
 * (agents, scripts). docs/HTTP-API.md documents the endpoints.
 */
public final class HttpServerVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HttpServerVerticle.class);
  // the page and its scripts come from this origin only; no inline script can run
  private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
      + " object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

  private final Ratchet ratchet;
  private final HttpOptions options;
  private HttpServer server;
  private RatchetMetrics metrics;

  public HttpServerVerticle(Ratchet ratchet, HttpOptions options) {
    this.ratchet = ratchet;
    this.options = options;
  }

  /** The port the server listens on; useful when configured with port 0. */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }

  @Override
  public Future<?> start() {
    if (options.users().isEmpty() && options.tokens().isEmpty()) {
      LOG.warn("http: no users or tokens configured; only /health will answer (see docs/HTTP-API.md)");
    }
    metrics = new RatchetMetrics(vertx, ratchet);
    Router router = router();
    return vertx.createHttpServer(new HttpServerOptions().setPort(options.port()).setHost(options.host()))
        .requestHandler(router).listen().onSuccess(s -> {
          server = s;
          LOG.info("http: API and dashboard on http://{}:{}/", options.host(), s.actualPort());
        });
  }

  @Override
  public Future<?> stop() {
    if (metrics != null) {
      metrics.close();
    }
    return server == null ? Future.succeededFuture() : server.close();
  }

  private Router router() {
    Router router = Router.router(vertx);
    Authenticator authenticator = new Authenticator(options);
    router.route().handler(HttpServerVerticle::securityHeaders);
    router.route().handler(BodyHandler.create(false).setBodyLimit(options.bodyLimitBytes()));
    router.route().handler(SessionHandler.create(LocalSessionStore.create(vertx))
        .setSessionCookieName(AuthHandler.SESSION_COOKIE).setCookieHttpOnlyFlag(true)
        .setCookieSameSite(CookieSameSite.STRICT).setCookieSecureFlag(options.secureCookies())
        .setSessionTimeout(options.sessionTimeoutMillis()).setLazySession(true));

    HealthRoutes health = new HealthRoutes(ratchet, metrics);
    LoginRoutes login = new LoginRoutes(vertx, authenticator);
    health.mountPublic(router);
    login.mountPublic(router);
    // the login page and what it needs are the only public files
    publicFile(router, "/login.html", "text/html; charset=utf-8");
    publicFile(router, "/assets/app.css", "text/css; charset=utf-8");
    publicFile(router, "/assets/login.js", "text/javascript; charset=utf-8");

    router.route().handler(new AuthHandler(authenticator));
    login.mountProtected(router);
    health.mountProtected(router);
    // every route that names a session answers only for sessions the caller's tenants include
    SessionAccess access = new SessionAccess(ratchet.journal());
    new TurnRoutes(vertx, ratchet, metrics, access).mount(router);
    new EventStream(vertx, ratchet, access).mount(router);
    new SessionRoutes(ratchet, metrics, access).mount(router);
    new ApprovalRoutes(ratchet, metrics, access, options.fourEyes()).mount(router);
    new CatalogRoutes(ratchet).mount(router);
    new MessageRoutes(vertx, ratchet, access).mount(router);
    router.route("/api/*").handler(ctx -> Replies.error(ctx, 404, "NOT_FOUND", "no such endpoint"));
    router.get("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false).setIndexPage("index.html"));

    router.errorHandler(413, ctx -> Replies.error(ctx, 413, "PAYLOAD_TOO_LARGE",
        "the request body is larger than " + options.bodyLimitBytes() + " bytes"));
    router.errorHandler(404, ctx -> Replies.error(ctx, 404, "NOT_FOUND", "not found"));
    router.errorHandler(500, ctx -> Replies.fail(ctx, ctx.failure() == null ? new RuntimeException("failed")
        : ctx.failure()));
    return router;
  }

  private static void publicFile(Router router, String path, String contentType) {
    router.get(path).handler(ctx -> ctx.response().putHeader("Content-Type", contentType)
        .putHeader("Cache-Control", "no-cache").sendFile("webroot" + path)
        .onFailure(err -> ctx.fail(404)));
  }

  // Referrer-Policy same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on
  // form posts, and the login's origin check would refuse the dashboard's own login form
  private static void securityHeaders(RoutingContext ctx) {
    ctx.response().putHeader("Content-Security-Policy", CSP).putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "same-origin").putHeader("X-Frame-Options", "DENY");
    ctx.next();
  }
}

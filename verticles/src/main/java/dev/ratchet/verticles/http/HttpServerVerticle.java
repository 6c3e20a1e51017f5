package dev.ratchet.verticles.http;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.http.impl.ApprovalRoutes;
import dev.ratchet.verticles.http.impl.RetentionRoutes;
import dev.ratchet.verticles.http.impl.AuthHandler;
import dev.ratchet.verticles.http.impl.Authenticator;
import dev.ratchet.verticles.http.impl.CatalogRoutes;
import dev.ratchet.verticles.http.impl.ConnectionRoutes;
import dev.ratchet.verticles.http.impl.EventStream;
import dev.ratchet.verticles.http.impl.HealthRoutes;
import dev.ratchet.verticles.http.impl.InboxStream;
import dev.ratchet.verticles.http.impl.LoginRoutes;
import dev.ratchet.verticles.http.impl.LoginThrottle;
import dev.ratchet.verticles.http.impl.MessageRoutes;
import dev.ratchet.verticles.http.impl.PreAuthBody;
import dev.ratchet.verticles.http.impl.Principal;
import dev.ratchet.verticles.http.impl.PrefixedSessionRedis;
import dev.ratchet.verticles.http.impl.RatchetMetrics;
import dev.ratchet.verticles.http.impl.Replies;
import dev.ratchet.verticles.http.impl.SessionAccess;
import dev.ratchet.verticles.http.impl.SessionRoutes;
import dev.ratchet.verticles.http.impl.Tenants;
import dev.ratchet.verticles.http.impl.TurnRoutes;
import dev.ratchet.verticles.http.impl.UnknownOutcomes;
import dev.ratchet.verticles.http.impl.mcp.McpRoutes;
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
import io.vertx.ext.web.sstore.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Ratchet's HTTP API and approvals dashboard on one port. Deploy with the runtime it serves:
 * <pre>{@code vertx.deployVerticle(new HttpServerVerticle(ratchet, HttpOptions.fromConfig(config.getJsonObject("http"))));}</pre>
 * Everything but {@code /health} and the login page needs a login (dashboard) or a bearer token
 * (agents, scripts); until the caller is known, at most {@link HttpOptions#preAuthBodyLimitBytes()}
 * of a body is read. Login sessions live in the journal's Redis when the runtime is Ratchet's own
 * (so they survive a restart), else in memory. docs/HTTP-API.md documents the endpoints.
 */
public final class HttpServerVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HttpServerVerticle.class);
  // the page and its scripts come from this origin only; no inline script can run
  private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
      + " object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

  private final RatchetNode ratchet;
  private final HttpOptions options;
  private HttpServer server;
  private RatchetMetrics metrics;
  private SessionStore sessionStore;
  private java.util.Map<String, dev.ratchet.connectors.provider.ToolProvider> providers = java.util.Map.of();

  public HttpServerVerticle(RatchetNode ratchet, HttpOptions options) {
    this.ratchet = ratchet;
    this.options = options;
  }

  /**
   * Serves the connections of these tool providers, by name, on {@code /api/providers} and
   * {@code /api/connections} and the dashboard's Connections page; none by default.
   */
  public HttpServerVerticle providers(java.util.Map<String, dev.ratchet.connectors.provider.ToolProvider> providers) {
    this.providers = java.util.Map.copyOf(providers);
    return this;
  }

  /** The port the server listens on; useful when configured with port 0. */
  private static void warnIfNoTenants(String name, Role role, boolean token, String resourceId, List<String> tenants) {
    String callerId = resourceId != null ? resourceId : name;
    if (new Principal(name, role, token, callerId, Tenants.of(callerId, tenants)).noTenants()) {
      LOG.warn("http: {}{} '{}' has no tenants: it sees only the sessions of its own caller id '{}', which no"
              + " agent uses, so no agent's session or approval reaches it; give it \"tenants\" (caller ids, or \"*\")",
          role.wireName(), token ? " token" : "", name, name);
    }
  }

  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }

  @Override
  public Future<?> start() {
    if (options.users().isEmpty() && options.tokens().isEmpty()) {
      LOG.warn("http: no users or tokens configured; only /health will answer (see docs/HTTP-API.md)");
    }
    options.users().forEach(u -> warnIfNoTenants(u.name(), u.role(), false, u.resourceId(), u.tenants()));
    options.tokens().forEach(t -> warnIfNoTenants(t.name(), t.role(), true, t.resourceId(), t.tenants()));
    metrics = new RatchetMetrics(vertx, ratchet);
    sessionStore = sessionStore();
    Router router = router();
    return vertx.createHttpServer(new HttpServerOptions().setPort(options.port()).setHost(options.host()))
        .requestHandler(router).listen().onSuccess(s -> {
          server = s;
          LOG.info("http: API and dashboard on http://{}:{}/ ({}; {})", options.host(), s.actualPort(),
              isLoopback(options.host()) ? "local only" : "reachable from other hosts",
              options.secureCookies() ? "session cookies Secure"
                  : "session cookies not Secure: set http.secureCookies when served over HTTPS");
        });
  }

  @Override
  public Future<?> stop() {
    if (metrics != null) {
      metrics.close();
    }
    Future<?> closed = server == null ? Future.succeededFuture() : server.close();
    return closed.onComplete(v -> {
      if (sessionStore != null) {
        sessionStore.close();
      }
    });
  }

  private SessionStore sessionStore() {
    if (options.sessionStore() == HttpOptions.SessionStore.REDIS) {
      RatchetOptions deployed = ratchet.options();
      if (deployed != null && (deployed.redisUrl() != null || !deployed.redisTopology().endpoints().isEmpty())) {
        JournalOptions journal = deployed.journalOptions().withMaxPoolSize(4).withMaxWaiting(1024);
        return PrefixedSessionRedis.store(vertx, () -> journal.redisClient(vertx), deployed.keyPrefix());
      }
      LOG.warn("http: this runtime names no Redis for login sessions; they are kept in memory and end with the process");
    }
    return LocalSessionStore.create(vertx);
  }

  private static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
  }

  private Router router() {
    Router router = Router.router(vertx);
    Authenticator authenticator = new Authenticator(options);
    router.route().handler(HttpServerVerticle::securityHeaders);
    router.route().handler(HttpServerVerticle::wellFormedPath);
    // nothing reads the body until a route decides how much it may read: the login form a little,
    // a known caller up to bodyLimitBytes
    router.route().handler(PreAuthBody::hold);
    SessionHandler sessions = SessionHandler.create(sessionStore)
        .setSessionCookieName(AuthHandler.SESSION_COOKIE).setCookieHttpOnlyFlag(true)
        .setCookieSameSite(CookieSameSite.STRICT).setCookieSecureFlag(options.secureCookies())
        .setSessionTimeout(options.sessionTimeoutMillis()).setLazySession(true);
    router.route().handler(sessions);

    HealthRoutes health = new HealthRoutes(ratchet, metrics);
    LoginRoutes login = new LoginRoutes(vertx, authenticator, new LoginThrottle(options), sessions);
    health.mountPublic(router);
    router.post("/login").handler(BodyHandler.create(false).setBodyLimit(options.preAuthBodyLimitBytes()));
    login.mountPublic(router);
    // the login page and what it needs are the only public files
    publicFile(router, "/login.html", "text/html; charset=utf-8");
    publicFile(router, "/assets/app.css", "text/css; charset=utf-8");
    publicFile(router, "/assets/login.js", "text/javascript; charset=utf-8");
    publicFile(router, "/favicon.svg", "image/svg+xml");
    // browsers ask for /favicon.ico on their own, whatever the page links
    publicFile(router, "/favicon.ico", "/favicon.svg", "image/svg+xml");

    router.route().handler(new AuthHandler(authenticator));
    router.route().handler(BodyHandler.create(false).setBodyLimit(options.bodyLimitBytes()));
    login.mountProtected(router);
    health.mountProtected(router);
    // every route that names a session answers only for sessions the caller's tenants include
    SessionAccess access = new SessionAccess(ratchet.journal());
    new TurnRoutes(vertx, ratchet, metrics, access).mount(router);
    new EventStream(vertx, ratchet, access).mount(router);
    UnknownOutcomes unknown = new UnknownOutcomes(ratchet.journal());
    unknown.mount(router);
    new SessionRoutes(ratchet, metrics, access).mount(router);
    ApprovalRoutes approvals = new ApprovalRoutes(ratchet, metrics, access, options.fourEyes());
    new InboxStream(vertx, approvals, unknown).mount(router);
    approvals.mount(router);
    new CatalogRoutes(ratchet).mount(router);
    new MessageRoutes(vertx, ratchet, access).mount(router);
    new ConnectionRoutes(providers).mount(router);
    new McpRoutes(vertx, ratchet, access, options.mcpProgressMillis()).mount(router);
    new RetentionRoutes(ratchet, access).mount(router);
    router.route("/api/*").handler(ctx -> Replies.error(ctx, ErrorCode.NOT_FOUND, "no such endpoint"));
    router.get("/*").handler(StaticHandler.create("webroot").setCachingEnabled(false).setIndexPage("index.html"));

    router.errorHandler(413, ctx -> Replies.error(ctx, ErrorCode.PAYLOAD_TOO_LARGE,
        "the request body is larger than " + (AuthHandler.principal(ctx) == null ? options.preAuthBodyLimitBytes()
            + " bytes (the limit before logging in)" : options.bodyLimitBytes() + " bytes")));
    router.errorHandler(404, ctx -> Replies.error(ctx, ErrorCode.NOT_FOUND, "not found"));
    router.errorHandler(400, ctx -> Replies.error(ctx, ErrorCode.INVALID_REQUEST, "the request is malformed"));
    router.errorHandler(500, HttpServerVerticle::failed);
    return router;
  }

  private static void publicFile(Router router, String path, String contentType) {
    publicFile(router, path, path, contentType);
  }

  private static void publicFile(Router router, String path, String file, String contentType) {
    router.get(path).handler(ctx -> ctx.response().putHeader("Content-Type", contentType)
        .putHeader("Cache-Control", "no-cache").sendFile("webroot" + file)
        .onFailure(err -> ctx.fail(404)));
  }

  private static void failed(RoutingContext ctx) {
    Throwable err = ctx.failure() == null ? new RuntimeException("failed") : ctx.failure();
    if (AuthHandler.principal(ctx) == null && ctx.request().getCookie(AuthHandler.SESSION_COOKIE) != null
        && !(err instanceof dev.ratchet.runtime.RatchetException)) {
      // before the caller is known, only the session store fails this way: Redis is away, not a bug
      LOG.warn("{} {}: the login session could not be read: {}", ctx.request().method(), ctx.request().path(),
          err.getMessage());
      Replies.error(ctx, ErrorCode.SESSION_STORE_UNAVAILABLE, "logins cannot be checked right now; try again later");
      return;
    }
    Replies.fail(ctx, err);
  }

  /** A path Vert.x cannot decode ({@code /%zz}) is the client's mistake: a 400, not a logged stack trace. */
  private static void wellFormedPath(RoutingContext ctx) {
    try {
      ctx.normalizedPath();
    } catch (IllegalArgumentException e) {
      Replies.error(ctx, ErrorCode.INVALID_REQUEST, "the URL's path has a malformed %-escape");
      return;
    }
    ctx.next();
  }

  // Referrer-Policy same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on
  // form posts, and the login's origin check would refuse the dashboard's own login form
  private static void securityHeaders(RoutingContext ctx) {
    ctx.response().putHeader("Content-Security-Policy", CSP).putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "same-origin").putHeader("X-Frame-Options", "DENY");
    ctx.next();
  }
}

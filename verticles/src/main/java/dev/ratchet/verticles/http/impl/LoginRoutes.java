package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.VisibleText;
import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Session;
import io.vertx.ext.web.handler.SessionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /login} (form or JSON), {@code POST /logout} and {@code GET /api/me}. Log-ins are
 * throttled by a {@link LoginThrottle}; every failed or refused one is logged at WARN with the
 * user name and the client's address, never the password.
 */
public record LoginRoutes(Vertx vertx, Authenticator authenticator, LoginThrottle throttle, SessionHandler sessions) {

  private static final Logger LOG = LoggerFactory.getLogger(LoginRoutes.class);

  /** Routes that need no login; mount before the {@link AuthHandler}. */
  public void mountPublic(Router router) {
    router.post("/login").handler(this::login);
  }

  /** Routes for logged-in callers; mount after the {@link AuthHandler}. */
  public void mountProtected(Router router) {
    router.post("/logout").handler(this::logout);
    router.get("/api/me").handler(this::me);
  }

  private void login(RoutingContext ctx) {
    if (!sameOrigin(ctx)) {
      // a login posted from another site (login CSRF) would sign the browser in as someone else
      Replies.error(ctx, ErrorCode.CSRF, "log in from the dashboard's own login page");
      return;
    }
    String type = String.valueOf(ctx.request().getHeader("Content-Type"));
    boolean json = type.startsWith("application/json");
    String name;
    String password;
    if (json) {
      JsonObject body;
      try {
        body = Replies.body(ctx);
      } catch (RuntimeException e) {
        Replies.fail(ctx, e);
        return;
      }
      name = body.getValue("name") instanceof String ? body.getString("name") : null;
      password = body.getValue("password") instanceof String ? body.getString("password") : null;
    } else {
      name = ctx.request().getFormAttribute("name");
      password = ctx.request().getFormAttribute("password");
    }
    String address = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
    long wait = throttle.begin(name, address);
    if (wait > 0) {
      long seconds = (wait + 999) / 1000;
      LOG.warn("login refused for user '{}' from {}: too many failed log-ins, locked for {} s more", printable(name),
          address, seconds);
      ctx.response().putHeader("Retry-After", String.valueOf(seconds));
      if (json) {
        Replies.error(ctx, ErrorCode.TOO_MANY_ATTEMPTS, "too many failed log-ins for this name from this address; try again in "
            + seconds + " s");
      } else {
        ctx.response().setStatusCode(303).putHeader("Location", "/login.html?error=locked").end();
      }
      return;
    }
    vertx.executeBlocking(() -> authenticator.login(name, password), false).onComplete(ar -> {
      Principal p = ar.succeeded() ? ar.result() : null;
      if (p == null) {
        throttle.failed(name, address);
        LOG.warn("login failed for user '{}' from {} ({} failure(s) in a row)", printable(name), address,
            throttle.failures(name, address));
        if (json) {
          Replies.error(ctx, ErrorCode.UNAUTHENTICATED, "wrong name or password");
        } else {
          ctx.response().setStatusCode(303).putHeader("Location", "/login.html?error=1").end();
        }
        return;
      }
      throttle.succeeded(name, address);
      Session session = ctx.session();
      // a new id on login, so that a session id planted before login is worthless (session fixation)
      session.regenerateId();
      session.put(AuthHandler.SESSION_NAME, p.name());
      session.put(AuthHandler.SESSION_ROLE, p.role().wireName());
      session.put(AuthHandler.SESSION_CALLER, p.callerId());
      session.put(AuthHandler.SESSION_TENANTS, p.tenants().encode());
      session.put(AuthHandler.SESSION_CSRF, PasswordHash.newToken());
      // stored before the browser holds its cookie, so that its next request finds the session
      sessions.flush(ctx).onComplete(stored -> {
        if (stored.failed()) {
          LOG.warn("login of user '{}' could not store its session: {}", printable(name), stored.cause().getMessage());
          Replies.error(ctx, ErrorCode.SESSION_STORE_UNAVAILABLE, "the login could not be stored; try again later");
          return;
        }
        loggedIn(ctx, json, p, session);
      });
    });
  }

  private static void loggedIn(RoutingContext ctx, boolean json, Principal p, Session session) {
    if (json) {
      Replies.json(ctx, 200, new JsonObject().put("name", p.name()).put("role", p.role().wireName())
          .put("csrfToken", (String) session.get(AuthHandler.SESSION_CSRF)));
    } else {
      ctx.response().setStatusCode(303).putHeader("Location", "/").end();
    }
  }

  /**
   * A user name as typed, fit for one log line: escaped as {@code inspect} escapes (VisibleText),
   * its quotes too, at most 64 characters.
   */
  static String printable(String name) {
    if (name == null) {
      return "";
    }
    String shown = VisibleText.escape(name.length() > 64 ? name.substring(0, 64) : name).replace("'", "\\x27");
    return name.length() > 64 ? shown + "..." : shown;
  }

  /** True when the browser names no origin (non-browser clients) or this server's own. */
  private static boolean sameOrigin(RoutingContext ctx) {
    String origin = ctx.request().getHeader("Origin");
    if (origin == null || origin.isEmpty()) {
      return true;
    }
    String host = ctx.request().getHeader("Host");
    return host != null && (origin.equals("http://" + host) || origin.equals("https://" + host));
  }

  private void logout(RoutingContext ctx) {
    if (ctx.request().getCookie(AuthHandler.SESSION_COOKIE) != null) {
      ctx.session().destroy();
    }
    Replies.json(ctx, 200, new JsonObject().put("status", "logged_out"));
  }

  private void me(RoutingContext ctx) {
    Principal p = AuthHandler.principal(ctx);
    JsonObject me = new JsonObject().put("name", p.name()).put("role", p.role().wireName())
        .put("callerId", p.callerId()).put("tenants", p.tenants().all() ? (Object) "*"
            : new io.vertx.core.json.JsonArray(p.tenants().callers())).put("noTenants", p.noTenants());
    if (!p.viaToken()) {
      // the page reads its CSRF token here; same-origin only, and the response is never cached
      me.put("csrfToken", (String) ctx.session().get(AuthHandler.SESSION_CSRF));
    }
    Replies.json(ctx, 200, me);
  }
}

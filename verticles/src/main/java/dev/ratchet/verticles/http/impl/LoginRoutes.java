package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Session;

/** {@code POST /login} (form or JSON), {@code POST /logout} and {@code GET /api/me}. */
public final class LoginRoutes {

  private final Vertx vertx;
  private final Authenticator authenticator;

  public LoginRoutes(Vertx vertx, Authenticator authenticator) {
    this.vertx = vertx;
    this.authenticator = authenticator;
  }

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
      Replies.error(ctx, 403, "CSRF", "log in from the dashboard's own login page");
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
    vertx.executeBlocking(() -> authenticator.login(name, password), false).onComplete(ar -> {
      Principal p = ar.succeeded() ? ar.result() : null;
      if (p == null) {
        if (json) {
          Replies.error(ctx, 401, "UNAUTHENTICATED", "wrong name or password");
        } else {
          ctx.response().setStatusCode(303).putHeader("Location", "/login.html?error=1").end();
        }
        return;
      }
      Session session = ctx.session();
      // a new id on login, so that a session id planted before login is worthless (session fixation)
      session.regenerateId();
      session.put(AuthHandler.SESSION_NAME, p.name());
      session.put(AuthHandler.SESSION_ROLE, p.role().wireName());
      session.put(AuthHandler.SESSION_CALLER, p.callerId());
      session.put(AuthHandler.SESSION_TENANTS, p.tenants().encode());
      session.put(AuthHandler.SESSION_CSRF, PasswordHash.newToken());
      if (json) {
        Replies.json(ctx, 200, new JsonObject().put("name", p.name()).put("role", p.role().wireName())
            .put("csrfToken", (String) session.get(AuthHandler.SESSION_CSRF)));
      } else {
        ctx.response().setStatusCode(303).putHeader("Location", "/").end();
      }
    });
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
            : new io.vertx.core.json.JsonArray(p.tenants().callers()));
    if (!p.viaToken()) {
      // the page reads its CSRF token here; same-origin only, and the response is never cached
      me.put("csrfToken", (String) ctx.session().get(AuthHandler.SESSION_CSRF));
    }
    Replies.json(ctx, 200, me);
  }
}

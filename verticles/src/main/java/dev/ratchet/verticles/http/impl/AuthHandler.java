package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Resolves who is calling, from a bearer token or the login session, and refuses everyone else:
 * API paths answer 401 JSON, pages redirect to the login page. State-changing requests that ride
 * on the session cookie must carry the session's CSRF token in {@code X-CSRF-Token}
 * (synchronizer-token pattern); bearer-token calls carry no cookie, so they are exempt.
 */
public final class AuthHandler implements Handler<RoutingContext> {

  public static final String SESSION_COOKIE = "ratchet.session";
  public static final String CSRF_HEADER = "X-CSRF-Token";
  static final String SESSION_NAME = "name";
  static final String SESSION_ROLE = "role";
  static final String SESSION_CSRF = "csrf";
  static final String SESSION_CALLER = "caller";
  static final String SESSION_TENANTS = "tenants";

  private final Authenticator authenticator;

  public AuthHandler(Authenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String auth = ctx.request().getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      Principal p = authenticator.token(auth.substring(7).trim());
      if (p == null) {
        // the scheme, and no resource metadata: an MCP client must not start an OAuth flow for a bad token
        ctx.response().putHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        Replies.error(ctx, ErrorCode.UNAUTHENTICATED, "the bearer token is not valid");
        return;
      }
      ctx.put(Principal.KEY, p);
      ctx.next();
      return;
    }
    Session session = ctx.request().getCookie(SESSION_COOKIE) == null ? null : ctx.session();
    String name = session == null ? null : session.get(SESSION_NAME);
    if (name == null) {
      unauthenticated(ctx);
      return;
    }
    String caller = session.get(SESSION_CALLER);
    String callerId = caller == null ? name : caller;
    Principal p = new Principal(name, Role.fromWireName(session.get(SESSION_ROLE)), false, callerId,
        Tenants.decode(callerId, session.get(SESSION_TENANTS)));
    if (changesState(ctx.request().method()) && !csrfMatches(ctx.request().getHeader(CSRF_HEADER),
        session.get(SESSION_CSRF))) {
      Replies.error(ctx, ErrorCode.CSRF, "missing or wrong " + CSRF_HEADER + " header; reload the page");
      return;
    }
    ctx.put(Principal.KEY, p);
    ctx.next();
  }

  /** A handler that lets the request through only when the caller's role has the permission. */
  public static Handler<RoutingContext> require(Role.Permission permission) {
    return requireAny(permission.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), permission);
  }

  /** Lets through a principal whose role has any of {@code permissions}; refuses others, who may not {@code action}. */
  public static Handler<RoutingContext> requireAny(String action, Role.Permission... permissions) {
    return ctx -> {
      Principal p = principal(ctx);
      if (p == null || Arrays.stream(permissions).noneMatch(p.role()::may)) {
        Replies.error(ctx, ErrorCode.FORBIDDEN, "role '" + (p == null ? "none" : p.role().wireName())
            + "' may not " + action);
        return;
      }
      ctx.next();
    };
  }

  public static Principal principal(RoutingContext ctx) {
    return ctx.get(Principal.KEY);
  }

  private static void unauthenticated(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (path.startsWith("/api/") || path.startsWith("/mcp/") || path.equals("/metrics") || ctx.request().method() != HttpMethod.GET) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      Replies.error(ctx, ErrorCode.UNAUTHENTICATED, "log in or send Authorization: Bearer <token>");
      return;
    }
    ctx.response().setStatusCode(302).putHeader("Location", "/login.html").end();
  }

  private static boolean changesState(HttpMethod method) {
    return !(method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS);
  }

  private static boolean csrfMatches(String sent, String expected) {
    return sent != null && expected != null && MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
        expected.getBytes(StandardCharsets.UTF_8));
  }
}

package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisCluster;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The journal's state transitions, one Lua script each; the fenced ones start with fence.lua.
 * Scripts are loaded once at start and run by SHA; a server that lost its script cache (restart, failover) gets the script body again.
 */
final class LuaScripts {

  /** One script per state transition. */
  enum Script {
    CLAIM_AND_LOAD("claim_and_load.lua", false),
    SUBMIT_TURN("submit_turn.lua", true),
    CALL_STARTED("call_started.lua", true),
    CALLS_COMPLETED("calls_completed.lua", true),
    APPEND_EVENT("append_event.lua", true),
    APPROVAL_REQUESTED("approval_requested.lua", true),
    APPROVAL_DECIDED("approval_decided.lua", false),
    TURN_COMPLETED("turn_completed.lua", true),
    CALL_RECONCILED("call_reconciled.lua", false),
    MESSAGE_USER("message_user.lua", true),
    MODEL_RESPONSE("model_response.lua", true),
    MESSAGE_ASSISTANT("message_assistant.lua", true),
    RETENTION_REMOVE("retention_remove.lua", true),
    RETENTION_FORGET("retention_forget.lua", true),
    FORGOTTEN_ADD("forgotten_add.lua", false),
    IMPORT_SESSION("import_session.lua", false);

    final String file;
    /** Whether the script runs only under the session's current epoch (fence.lua goes first). */
    final boolean fenced;

    Script(String file, boolean fenced) {
      this.file = file;
      this.fenced = fenced;
    }
  }

  /**
   * The epoch check (J4) shared by every fenced script, prepended when the scripts are read: each
   * script stays one body, loaded and run by SHA as before, and Redis 6.2 (no FUNCTION libraries)
   * runs it unchanged.
   */
  static final String FENCE = "fence.lua";

  private final Supplier<Redis> redis;
  private final boolean cluster;
  private final Map<Script, String> bodies = new EnumMap<>(Script.class);
  private final Map<Script, String> shas = new EnumMap<>(Script.class);

  /** @param cluster the scripts go to every master of a Redis Cluster, each holding its own script cache */
  LuaScripts(Supplier<Redis> redis, boolean cluster) {
    this.redis = redis;
    this.cluster = cluster;
    String fence = read(FENCE);
    for (Script s : Script.values()) {
      bodies.put(s, s.fenced ? fence + read(s.file) : read(s.file));
    }
  }

  Future<Void> load() {
    if (cluster) {
      // one cluster connection reaches every master
      return redis.get().connect().compose(c -> loadAll(load -> RedisCluster.create(c).onAllMasterNodes(load)
          .map(replies -> replies.get(0))).andThen(done -> c.close()));
    }
    return loadAll(load -> redis.get().send(load));
  }

  private Future<Void> loadAll(Function<Request, Future<Response>> loader) {
    List<Future<Response>> loads = new ArrayList<>();
    for (Script s : Script.values()) {
      loads.add(loader.apply(Request.cmd(Command.SCRIPT).arg("LOAD").arg(bodies.get(s)))
          .onSuccess(r -> shas.put(s, r.toString())));
    }
    return Future.all(loads).mapEmpty();
  }

  /** The EVALSHA request for a script, for callers that pipeline it with other commands. */
  Request request(Script script, List<?> keys, List<?> args) {
    return call(Command.EVALSHA, shas.get(script), keys, args).request();
  }

  /** The EVAL request for a script, for a server that lost its script cache. */
  Request evalRequest(Script script, List<?> keys, List<?> args) {
    return call(Command.EVAL, bodies.get(script), keys, args).request();
  }

  Future<Response> run(Script script, List<?> keys, List<?> args) {
    Redis client = redis.get();
    Future<Response> sent = client instanceof EventLoopRedis loops
        ? loops.send(call(Command.EVALSHA, shas.get(script), keys, args))
        : client.send(request(script, keys, args));
    return sent.recover(err -> {
      if (err.getMessage() != null && err.getMessage().startsWith("NOSCRIPT")) {
        return redis.get().send(evalRequest(script, keys, args));
      }
      return Future.failedFuture(err);
    });
  }

  /**
   * The request's arguments in one array of their exact number: strings, numbers (written as
   * their decimal digits) and bytes already encoded (a record written once, never as a string),
   * each written once, with no list grown argument by argument.
   */
  private static RespRequest call(Command command, String script, List<?> keys, List<?> args) {
    Object[] all = new Object[2 + keys.size() + args.size()];
    all[0] = script;
    all[1] = (long) keys.size();
    int i = 2;
    for (int k = 0; k < keys.size(); k++) {
      all[i++] = keys.get(k);
    }
    for (int a = 0; a < args.size(); a++) {
      all[i++] = args.get(a);
    }
    return new RespRequest(command, command == Command.EVALSHA ? "EVALSHA" : "EVAL", all);
  }

  private static String read(String file) {
    try (InputStream in = LuaScripts.class.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("journal script missing from the classpath: " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The journal's own Redis connection against a real redis-server: login, pipelining, replies of every kind, failures. */
class RespConnectionTest {

  @RegisterExtension
  static TestRedis redis = TestRedis.withOwnServer();

  private Vertx vertx;
  private NetClient net;
  private ContextInternal context;
  private Redis client;
  private final String key = "resp-" + System.nanoTime();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    net = vertx.createNetClient(new NetClientOptions());
    context = (ContextInternal) vertx.getOrCreateContext();
    client = Redis.createClient(vertx, redis.url());
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  private RespConnection open(String url) {
    return await(onLoop(v -> RespConnection.open(net, null, RedisEndpoint.parse(url), context)));
  }

  /** Runs {@code action} on the connection's event loop, as the journal does. */
  private <T> Future<T> onLoop(Function<Void, Future<T>> action) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> action.apply(null).onComplete(done));
    return done.future();
  }

  private Future<Response> send(RespConnection connection, String name, Object... args) {
    return onLoop(v -> connection.send(new RespRequest(Command.EVAL, name, args), context));
  }

  @Test
  void aScriptsRepliesOfEveryKindArriveAsTheClientWouldGiveThem() {
    RespConnection connection = open(redis.url());

    Response reply = await(send(connection, "EVAL",
        "return {'ok', 42, {'nested', 'caf\u00e9'}, false, redis.status_reply('FINE')}", 0L));

    assertThat(reply.type()).isEqualTo(ResponseType.MULTI);
    assertThat(reply.size()).isEqualTo(5);
    assertThat(reply.get(0).toString()).isEqualTo("ok");
    assertThat(reply.get(1).toLong()).isEqualTo(42L);
    assertThat(reply.get(1).toString()).isEqualTo("42");
    assertThat(reply.get(2).get(1).toString()).isEqualTo("caf\u00e9");
    assertThat(reply.get(3)).isNull();
    assertThat(reply.get(4).toString()).isEqualTo("FINE");
    assertThat(await(send(connection, "GET", key + "-missing"))).isNull();
  }

  @Test
  void aHashReadByAScriptAnswersItsFieldsByNameAsTheClientsReplyDoes() {
    RespConnection connection = open(redis.url());
    await(client.send(Request.cmd(Command.HSET).arg(key).arg("status").arg("new").arg("epoch").arg("3")));

    Response hash = await(send(connection, "EVAL", "return redis.call('HGETALL', KEYS[1])", 1L, key));

    assertThat(hash.getKeys()).containsExactlyInAnyOrder("status", "epoch");
    assertThat(hash.get("epoch").toLong()).isEqualTo(3L);
    assertThat(hash.containsKey("owner")).isFalse();
    assertThat(hash.get("owner")).isNull();
  }

  @Test
  void aUnixSocketUrlReachesTheServerOverItsSocket() {
    assumeTrue(redis.ownServer().unixSocketUrl().isPresent(), "no Unix socket on this platform");
    RespConnection connection = open(redis.ownServer().unixSocketUrl().get());

    Response reply = await(send(connection, "EVAL", "return redis.call('INCRBY', KEYS[1], 5)", 1L, key));

    assertThat(reply.toLong()).isEqualTo(5L);
  }

  @Test
  void aReplySplitAcrossManyTcpReadsIsDecodedWhole() {
    RespConnection connection = open(redis.url());
    String big = "0123456789".repeat(300_000);
    await(client.send(Request.cmd(Command.SET).arg(key).arg(big)));

    Response reply = await(send(connection, "EVAL", "return {redis.call('GET', KEYS[1]), 'after'}", 1L, key));

    assertThat(reply.get(0).toString()).isEqualTo(big);
    assertThat(reply.get(1).toString()).isEqualTo("after");
  }

  @Test
  void pipelinedRequestsAreAnsweredInTheirOrder() {
    RespConnection connection = open(redis.url());

    Future<List<Long>> all = onLoop(v -> {
      List<Future<Response>> replies = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        replies.add(connection.send(new RespRequest(Command.INCR, "INCR", new Object[] {key}), context));
      }
      return Future.all(replies).map(done -> replies.stream().map(f -> f.result().toLong()).toList());
    });

    List<Long> counts = await(all);
    assertThat(counts).hasSize(2_000);
    for (int i = 0; i < counts.size(); i++) {
      assertThat(counts.get(i)).isEqualTo(i + 1L);
    }
  }

  @Test
  void anErrorReplyFailsItsRequestWithRedisMessageAndTheNextRequestGetsItsOwnReply() {
    RespConnection connection = open(redis.url());

    Throwable refused = failure(send(connection, "EVALSHA", "0123456789abcdef0123456789abcdef01234567", 0L));
    Response next = await(send(connection, "ECHO", "still in step"));

    assertThat(refused).isInstanceOf(RespError.class);
    assertThat(refused.getMessage()).startsWith("NOSCRIPT");
    assertThat(next.toString()).isEqualTo("still in step");
  }

  @Test
  void aConnectionClosedWithRepliesPendingFailsThemAndEveryLaterRequest() {
    RespConnection connection = open(redis.url());
    long id = await(send(connection, "CLIENT", "ID")).toLong();
    Future<Response> blocked = send(connection, "BLPOP", key + "-never", 0L);
    Future<Response> behind = send(connection, "ECHO", "behind");
    // Redis holds the BLPOP, and the ECHO behind it, unanswered
    Await.until(() -> await(client.send(Request.cmd(Command.INFO).arg("clients"))).toString()
        .contains("blocked_clients:1"), 10);

    await(client.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(id)));

    Throwable first = failure(blocked);
    assertThat(first).hasMessageContaining("the connection to Redis at redis://127.0.0.1:").hasMessageContaining("closed");
    assertThat(failure(behind)).isSameAs(first);
    assertThat(failure(send(connection, "ECHO", "later"))).hasMessageContaining("closed");
    assertThat(connection.isOpen()).isFalse();
  }

  @Test
  void aUserWithAPasswordLogsInAndSelectsTheDatabaseOfTheUrlWithoutTheSecretInAnyError() {
    String secret = "s3cret-" + System.nanoTime();
    await(client.send(Request.cmd(Command.ACL).arg("SETUSER").arg("journal").arg("on").arg(">" + secret)
        .arg("~*").arg("+@all")));
    String base = redis.url().replace("redis://", "");
    try {
      RespConnection connection = open("redis://journal:" + secret + "@" + base + "/3");
      await(send(connection, "SET", key, "in three"));

      Redis inThree = Redis.createClient(vertx, redis.url() + "/3");
      assertThat(await(inThree.send(Request.cmd(Command.GET).arg(key))).toString()).isEqualTo("in three");
      assertThat(await(client.send(Request.cmd(Command.GET).arg(key)))).isNull();

      Throwable refused = failure(onLoop(v -> RespConnection.open(net, null,
          RedisEndpoint.parse("redis://journal:wrong-" + secret + "@" + base), context)));
      assertThat(refused).hasMessageContaining("WRONGPASS").hasMessageContaining("as journal")
          .hasMessageNotContaining(secret);
    } finally {
      await(client.send(Request.cmd(Command.ACL).arg("DELUSER").arg("journal")));
    }
  }
}

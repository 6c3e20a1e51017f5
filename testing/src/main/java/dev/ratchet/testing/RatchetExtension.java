package dev.ratchet.testing;

import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Gives an application's JUnit 5 tests a real Redis and a {@link RatchetNode} deployed on a Vert.x of
 * their own, with the application's agents registered:
 * <pre>{@code
 * @RegisterExtension
 * static final RatchetExtension RATCHET = RatchetExtension.create().agent(ordersAgent());
 *
 * @Test
 * void cancelsAnOrder() throws Exception {
 *   TurnResult result = RATCHET.ratchet().submit("orders", "s-1", turn).await(30, TimeUnit.SECONDS);
 * }
 * }</pre>
 * The Redis is the one at {@value #REDIS_URL_VARIABLE} when that is set, else a {@code redis-server}
 * started for the test class on a free port with its data in a temporary directory: the one on
 * PATH, or the binary of the {@code com.github.codemonstur:embedded-redis} artifact when that is on
 * the test classpath. Each test class journals under a key prefix of its own, so classes sharing a
 * Redis never see each other's sessions. Everything is closed after the class, the Redis server
 * and its data included. Registered on a static field (or with {@code @ExtendWith}) it lives for the
 * class; on an instance field, for each test. Test methods may take a {@link Ratchet} or {@link RatchetNode}, a
 * {@link Vertx} or this extension as parameters.
 */
public final class RatchetExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  /** The environment variable naming an existing Redis for the tests, e.g. {@code redis://127.0.0.1:6379}. */
  public static final String REDIS_URL_VARIABLE = "RATCHET_TEST_REDIS_URL";

  private static final long TIMEOUT_SECONDS = 30;

  private final List<AgentDefinition> agents = new ArrayList<>();
  private final List<Consumer<RatchetOptions>> customisations = new ArrayList<>();
  private boolean ownRedis;

  private String startedBy;
  private RedisServerProcess server;
  private String redisUrl;
  private String keyPrefix;
  private Vertx vertx;
  private RatchetNode ratchet;

  /** For {@code @ExtendWith(RatchetExtension.class)}: no agents, the default options. */
  public RatchetExtension() {
  }

  /** An extension to configure and register with {@code @RegisterExtension}. */
  public static RatchetExtension create() {
    return new RatchetExtension();
  }

  /** An agent to register before the first test runs. */
  public RatchetExtension agent(AgentDefinition agent) {
    agents.add(Objects.requireNonNull(agent, "agent"));
    return this;
  }

  /**
   * Changes the options the Ratchet is deployed with, after the extension has set the Redis URL
   * and the key prefix: engine settings, session idle time, node id.
   */
  public RatchetExtension options(Consumer<RatchetOptions> customisation) {
    customisations.add(Objects.requireNonNull(customisation, "customisation"));
    return this;
  }

  /**
   * A {@code redis-server} of the class's own even when {@value #REDIS_URL_VARIABLE} is set: for
   * tests that stop, restart or flush it.
   */
  public RatchetExtension withOwnRedis() {
    ownRedis = true;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (startedBy == null) {
      start(context.getUniqueId());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(startedBy)) {
      stop();
    }
  }

  /** Registered on an instance field, the extension starts for each test as it starts for the class on a static one. */
  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    beforeAll(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    afterAll(context);
  }

  /** The Ratchet under test, with the agents registered. */
  public RatchetNode ratchet() {
    return running(ratchet);
  }

  /** The Vert.x the Ratchet is deployed on; the extension closes it. */
  public Vertx vertx() {
    return running(vertx);
  }

  /** The URL of the Redis the Ratchet journals to. */
  public String redisUrl() {
    return running(redisUrl);
  }

  /** The prefix of every key this test class's Ratchet writes. */
  public String keyPrefix() {
    return running(keyPrefix);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Ratchet.class || type == RatchetNode.class || type == Vertx.class || type == RatchetExtension.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Ratchet.class || type == RatchetNode.class ? ratchet() : type == Vertx.class ? vertx() : this;
  }

  private void start(String contextId) throws Exception {
    startedBy = contextId;
    try {
      String shared = ownRedis ? null : System.getenv(REDIS_URL_VARIABLE);
      if (shared != null && !shared.isBlank()) {
        redisUrl = shared;
      } else {
        server = RedisServerProcess.startTemporary("ratchet-test-redis", "everysec");
        redisUrl = server.url();
      }
      keyPrefix = "rt-" + UUID.randomUUID().toString().substring(0, 8);
      RatchetOptions options = RatchetOptions.create().redisUrl(redisUrl).keyPrefix(keyPrefix);
      customisations.forEach(c -> c.accept(options));
      vertx = Vertx.vertx();
      ratchet = await(RatchetNode.deploy(vertx, options), "deploying Ratchet on " + redisUrl);
      for (AgentDefinition agent : agents) {
        await(ratchet.register(agent), "registering agent " + agent.name());
      }
    } catch (Exception | Error e) {
      stop();
      throw e;
    }
  }

  private void stop() {
    try {
      if (ratchet != null) {
        await(ratchet.close(), "closing Ratchet");
      }
    } finally {
      try {
        if (vertx != null) {
          await(vertx.close(), "closing Vert.x");
        }
      } finally {
        if (server != null) {
          server.close();
        }
        startedBy = null;
        server = null;
        redisUrl = null;
        keyPrefix = null;
        vertx = null;
        ratchet = null;
      }
    }
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " was interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(what + " took more than " + TIMEOUT_SECONDS + " s", e);
    }
  }

  private static <T> T running(T value) {
    if (value == null) {
      throw new IllegalStateException("the Ratchet of this extension runs only during the tests of its class;"
          + " register it on a static field with @RegisterExtension, or with @ExtendWith");
    }
    return value;
  }
}

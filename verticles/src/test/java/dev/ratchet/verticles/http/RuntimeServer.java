package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.function.Function;

/**
 * An {@link HttpRuntime} on a Redis of the test class's own, started before its first test and
 * closed after its last: register it as a static extension.
 */
public class RuntimeServer<R extends HttpRuntime> implements BeforeAllCallback, AfterAllCallback {

  private final TestRedis redis = new TestRedis();
  private final Function<TestRedis, R> start;
  private R runtime;

  public RuntimeServer(Function<TestRedis, R> start) {
    this.start = start;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    redis.beforeAll(context);
    runtime = start.apply(redis);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (runtime != null) {
        runtime.close();
      }
    } finally {
      redis.afterAll(context);
    }
  }

  public R runtime() {
    return runtime;
  }

  public String baseUrl() {
    return runtime.baseUrl();
  }
}

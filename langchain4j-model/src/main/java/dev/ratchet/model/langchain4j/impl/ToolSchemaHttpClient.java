package dev.ratchet.model.langchain4j.impl;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpClientBuilderLoader;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * LangChain4j's HTTP client for the OpenAI protocol, with each tool's top-level schema keywords that
 * LangChain4j does not write (its OpenAI client writes {@code additionalProperties} only for strict
 * tools) put back from the catalogue's schema, so that the model sees the schema the catalogue shows.
 * The schemas of the request being sent are those given to {@link #withSchemas}, on the calling thread:
 * LangChain4j's blocking models send on the thread that called them.
 */
public final class ToolSchemaHttpClient implements HttpClient {

  private static final ThreadLocal<Map<String, JsonObject>> SCHEMAS = new ThreadLocal<>();

  private final HttpClient delegate;

  private ToolSchemaHttpClient(HttpClient delegate) {
    this.delegate = delegate;
  }

  /** Runs {@code call} with these schemas (by tool name) applied to the requests it sends. */
  public static <T> T withSchemas(Map<String, JsonObject> schemas, Callable<T> call) throws Exception {
    SCHEMAS.set(schemas);
    try {
      return call.call();
    } finally {
      SCHEMAS.remove();
    }
  }

  /** LangChain4j's default HTTP client builder, wrapped. */
  public static HttpClientBuilder builder() {
    HttpClientBuilder inner = HttpClientBuilderLoader.loadHttpClientBuilder();
    return new HttpClientBuilder() {
      @Override
      public Duration connectTimeout() {
        return inner.connectTimeout();
      }

      @Override
      public HttpClientBuilder connectTimeout(Duration timeout) {
        inner.connectTimeout(timeout);
        return this;
      }

      @Override
      public Duration readTimeout() {
        return inner.readTimeout();
      }

      @Override
      public HttpClientBuilder readTimeout(Duration timeout) {
        inner.readTimeout(timeout);
        return this;
      }

      @Override
      public HttpClient build() {
        return new ToolSchemaHttpClient(inner.build());
      }
    };
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    return delegate.execute(withToolSchemas(request));
  }

  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
    delegate.execute(withToolSchemas(request), parser, listener);
  }

  static HttpRequest withToolSchemas(HttpRequest request) {
    Map<String, JsonObject> schemas = SCHEMAS.get();
    if (schemas == null || schemas.isEmpty() || request.body() == null || !request.body().contains("\"tools\"")) {
      return request;
    }
    JsonObject body;
    try {
      body = new JsonObject(request.body());
    } catch (RuntimeException e) {
      return request;
    }
    if (!(body.getValue("tools") instanceof JsonArray tools)) {
      return request;
    }
    for (Object t : tools) {
      JsonObject function = t instanceof JsonObject tool ? tool.getJsonObject("function") : null;
      JsonObject schema = function == null ? null : schemas.get(function.getString("name"));
      if (schema != null && function.getValue("parameters") instanceof JsonObject params
          && "object".equals(params.getValue("type"))) {
        for (String key : schema.fieldNames()) {
          if (!params.containsKey(key)) {
            params.put(key, schema.getValue(key));
          }
        }
      }
    }
    return HttpRequest.builder().method(request.method()).url(request.url()).headers(request.headers())
        .body(body.encode()).build();
  }
}

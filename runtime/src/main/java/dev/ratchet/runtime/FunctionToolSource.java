package dev.ratchet.runtime;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Tools declared as Java lambdas. Example:
 * <pre>{@code
 * FunctionToolSource tools = FunctionToolSource.create("orders")
 *     .read("look_up_order", "Find an order", schema, inv -> lookUp(inv.arguments()))
 *     .tool(FunctionToolSource.define("refund_order", EffectClass.IDEMPOTENT_WRITE)
 *         .description("Refund an order").schema(schema)
 *         .approval(ApprovalRule.when(args -> args.getDouble("amount") > 100))
 *         .handler(inv -> refund(inv.idempotencyKey(), inv.arguments())));
 * }</pre>
 */
public final class FunctionToolSource implements ToolSource {

  private final String name;
  private final Map<String, Tool> tools = new LinkedHashMap<>();

  private FunctionToolSource(String name) {
    this.name = name;
  }

  public static FunctionToolSource create(String name) {
    return new FunctionToolSource(name);
  }

  public static Builder define(String toolName, EffectClass effectClass) {
    return new Builder(toolName, effectClass);
  }

  public FunctionToolSource read(String toolName, String description, JsonObject schema,
                                 Function<ToolInvocation, Future<Object>> handler) {
    return tool(define(toolName, EffectClass.READ).description(description).schema(schema).handler(handler));
  }

  public FunctionToolSource tool(Builder builder) {
    Tool tool = builder.build();
    if (tools.putIfAbsent(tool.name(), tool) != null) {
      throw new IllegalArgumentException("tool '" + tool.name() + "' is declared twice in source '" + name + "'");
    }
    return this;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Future<List<Tool>> tools(Vertx vertx) {
    return Future.succeededFuture(new ArrayList<>(tools.values()));
  }

  /** Declares one function tool. */
  public static final class Builder {
    private final String name;
    private final EffectClass effectClass;
    private String description = "";
    private JsonObject schema = new JsonObject().put("type", "object");
    private ApprovalRule approval = ApprovalRule.never();
    private Duration timeout = Duration.ofSeconds(30);
    private RetryPolicy retry = RetryPolicy.DEFAULT;
    private Function<ToolInvocation, Future<ToolResult>> invoke;
    private Function<ToolInvocation, Future<java.util.Optional<ToolResult>>> lookup;

    private Builder(String name, EffectClass effectClass) {
      this.name = Objects.requireNonNull(name, "name");
      this.effectClass = Objects.requireNonNull(effectClass, "effectClass");
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public Builder schema(JsonObject schema) {
      this.schema = schema;
      return this;
    }

    public Builder approval(ApprovalRule approval) {
      this.approval = approval;
      return this;
    }

    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    public Builder retry(RetryPolicy retry) {
      this.retry = retry;
      return this;
    }

    /** A handler whose value becomes a successful result. */
    public Builder handler(Function<ToolInvocation, Future<Object>> handler) {
      this.invoke = inv -> handler.apply(inv).map(ToolResult::success);
      return this;
    }

    /** A handler that decides the result itself (rejected, uncertain, retryable...). */
    public Builder invoke(Function<ToolInvocation, Future<ToolResult>> invoke) {
      this.invoke = invoke;
      return this;
    }

    public Builder lookup(Function<ToolInvocation, Future<java.util.Optional<ToolResult>>> lookup) {
      this.lookup = lookup;
      return this;
    }

    Tool build() {
      if (invoke == null) {
        throw new IllegalStateException("tool '" + name + "' has no handler");
      }
      return new FunctionTool(name, description, schema, effectClass, approval, timeout, retry, invoke, lookup);
    }
  }

  /** A tool as its builder declared it. */
  private record FunctionTool(String name, String description, JsonObject inputSchema, EffectClass effectClass,
                              ApprovalRule approvalRule, Duration timeout, RetryPolicy retryPolicy,
                              Function<ToolInvocation, Future<ToolResult>> handler,
                              Function<ToolInvocation, Future<java.util.Optional<ToolResult>>> finder) implements Tool {

    @Override
    public Future<ToolResult> invoke(ToolInvocation invocation) {
      try {
        return handler.apply(invocation);
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
    }

    @Override
    public boolean supportsLookup() {
      return finder != null;
    }

    @Override
    public Future<java.util.Optional<ToolResult>> lookup(ToolInvocation invocation) {
      return finder == null ? Tool.super.lookup(invocation) : finder.apply(invocation);
    }
  }
}

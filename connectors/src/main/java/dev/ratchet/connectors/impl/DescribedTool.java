package dev.ratchet.connectors.impl;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * A tool whose description is fixed when it is built (MCP and provider tools): what the catalogue
 * shows, and a retry policy that follows the effect class. Subclasses only say how to invoke it.
 */
public abstract class DescribedTool implements Tool {

  protected final String name;
  protected final String description;
  protected final JsonObject schema;
  protected final EffectClass effect;
  protected final ApprovalRule approval;
  protected final Duration timeout;
  protected final String source;

  protected DescribedTool(String name, String description, JsonObject schema, EffectClass effect,
                          ApprovalRule approval, Duration timeout, String source) {
    this.name = name;
    this.description = description == null ? "" : description;
    this.schema = schema == null ? new JsonObject().put("type", "object") : schema;
    this.effect = effect;
    this.approval = approval == null ? ApprovalRule.never() : approval;
    this.timeout = timeout == null ? Duration.ofSeconds(30) : timeout;
    this.source = source;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public JsonObject inputSchema() {
    return schema;
  }

  @Override
  public EffectClass effectClass() {
    return effect;
  }

  @Override
  public ApprovalRule approvalRule() {
    return approval;
  }

  @Override
  public Duration timeout() {
    return timeout;
  }

  @Override
  public RetryPolicy retryPolicy() {
    return effect == EffectClass.NON_IDEMPOTENT_WRITE ? RetryPolicy.NONE : RetryPolicy.DEFAULT;
  }

  @Override
  public String source() {
    return source;
  }
}

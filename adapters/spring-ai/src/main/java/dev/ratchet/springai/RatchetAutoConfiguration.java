package dev.ratchet.springai;

import dev.ratchet.turns.RatchetTurns;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import java.net.URI;

/**
 * Spring Boot auto-configuration: with {@code ratchet.url} (and {@code ratchet.agent},
 * {@code ratchet.token}) a {@link RatchetTurns} over HTTP; with a {@link RatchetTurns} bean, the
 * {@link RatchetToolCallingManager} that Spring AI's chat models use in place of their own (it runs
 * before Spring AI's tool-calling auto-configuration, whose manager backs off) and the agent's
 * {@link RatchetToolCallbacks}.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration")
@ConditionalOnClass(ToolCallingManager.class)
@EnableConfigurationProperties(RatchetProperties.class)
public class RatchetAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(RatchetTurns.class)
  @ConditionalOnProperty(prefix = "ratchet", name = "url")
  public RatchetTurns ratchetTurns(RatchetProperties properties) {
    if (properties.getAgent() == null || properties.getAgent().isBlank()) {
      throw new IllegalStateException("ratchet.url is set but ratchet.agent is not: name the agent whose tools to use");
    }
    if (properties.getToken() == null || properties.getToken().isBlank()) {
      throw new IllegalStateException("ratchet.url is set but ratchet.token is not: give an API token of role agent");
    }
    return RatchetTurns.http(URI.create(properties.getUrl()), properties.getAgent(), properties.getToken());
  }

  @Bean
  @ConditionalOnBean(RatchetTurns.class)
  @ConditionalOnMissingBean(ToolCallingManager.class)
  public RatchetToolCallingManager ratchetToolCallingManager(RatchetTurns ratchet) {
    return new RatchetToolCallingManager(ratchet);
  }

  @Bean
  @ConditionalOnBean(RatchetTurns.class)
  @ConditionalOnMissingBean
  public RatchetToolCallbacks ratchetToolCallbacks(RatchetTurns ratchet) {
    return new RatchetToolCallbacks(ratchet);
  }
}

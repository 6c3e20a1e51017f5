package dev.ratchet.springai;

import dev.ratchet.turns.RatchetTurns;
import org.junit.jupiter.api.Test;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class RatchetAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(RatchetAutoConfiguration.class));

  @Test
  void aRatchetUrlGivesTheToolCallingManagerAndTheCallbacksOverHttp() {
    runner.withPropertyValues("ratchet.url=http://127.0.0.1:1", "ratchet.agent=shop", "ratchet.token=t0ken")
        .run(context -> {
          assertThat(context.getBean(RatchetTurns.class).agent()).isEqualTo("shop");
          assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(RatchetToolCallingManager.class);
          assertThat(context).hasSingleBean(RatchetToolCallbacks.class);
        });
  }

  @Test
  void aRatchetUrlWithoutAnAgentFailsTheStartWithWhatIsMissing() {
    runner.withPropertyValues("ratchet.url=http://127.0.0.1:1", "ratchet.token=t0ken")
        .run(context -> assertThat(context.getStartupFailure()).hasRootCauseMessage(
            "ratchet.url is set but ratchet.agent is not: name the agent whose tools to use"));
  }

  @Test
  void withoutRatchetSpringAisOwnManagerStays() {
    runner.run(context -> {
      assertThat(context).doesNotHaveBean(ToolCallingManager.class);
      assertThat(context).doesNotHaveBean(RatchetToolCallbacks.class);
    });
  }
}

package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The broker's contract that holds without starting it; starting is covered by the ITs. */
class EmbeddedKafkaBrokerTest {

  @Test
  void listenersAndDirectoriesCannotBeOverridden() {
    assertThatThrownBy(
            () -> EmbeddedKafkaBroker.builder().brokerProperty("listeners", "PLAINTEXT://:9092"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("listeners");
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder().brokerProperty("log.dirs", "/data"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log.dirs");
  }

  @Test
  void portMustBeAValidTcpPort() {
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder().port(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder().port(65_536))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bootstrapServersAreUnknownBeforeStart() {
    final EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build();

    assertThatThrownBy(broker::bootstrapServers)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not running");
  }

  @Test
  void closingABrokerThatNeverStartedIsHarmlessAndFinal() {
    final EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build();

    assertThatCode(
            () -> {
              broker.close();
              broker.close();
            })
        .doesNotThrowAnyException();
    assertThatThrownBy(broker::start).isInstanceOf(IllegalStateException.class);
  }
}

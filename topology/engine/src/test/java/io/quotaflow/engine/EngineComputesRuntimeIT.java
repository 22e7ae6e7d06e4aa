package io.quotaflow.engine;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Scenario (a) on the in-JVM broker: see {@link FullComputationScenario}. */
@Tag("smoke")
@ExtendWith(EmbeddedKafkaExtension.class)
class EngineComputesRuntimeIT {

  @Test
  void finalRuntimesEqualTheCoresFullComputationOnTheFinalInputs(final EmbeddedKafkaBroker broker) {
    FullComputationScenario.run(broker.bootstrapServers());
  }
}

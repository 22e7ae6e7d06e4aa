package io.quotaflow.engine;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Scenario (a) against a Kafka broker in a container, where a Docker engine runs; it is skipped
 * where none does. Nothing depends on it: {@link EngineComputesRuntimeIT} runs the same scenario on
 * the in-JVM broker.
 */
@Testcontainers(disabledWithoutDocker = true)
class EngineOnContainerKafkaIT {

  @Container private static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.0");

  @Test
  void finalRuntimesEqualTheCoresFullComputationOnAContainerBroker() {
    FullComputationScenario.run(KAFKA.getBootstrapServers());
  }
}

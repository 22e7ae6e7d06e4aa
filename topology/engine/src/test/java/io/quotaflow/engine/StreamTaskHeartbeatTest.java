package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.engine.liveness.TaskHeartbeat;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.11: each stream task beats from a wall-clock punctuation, which its thread runs only
 * between records; a thread wedged in processing stops beating, and {@code /healthz} (which reads
 * {@link Heartbeats#silent()}) names the task once it is silent longer than {@code
 * health.max.silence}. An idle task beats all the same.
 */
class StreamTaskHeartbeatTest {

  private static final class FakeClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void anIdleTaskBeatsAndAWedgedOneIsNamedOnceSilentTooLong() throws IOException {
    final EngineConfig config =
        EngineDriver.settings().set(EngineSettings.HEALTH_MAX_SILENCE.key(), "30s").build();
    final FakeClock clock = new FakeClock();
    final Heartbeats heartbeats = new Heartbeats(clock);
    final EngineMetrics metrics = new EngineMetrics(new SimpleMeterRegistry(), 0, heartbeats);
    final Properties properties = QuotaTopology.streamsProperties(config.topics(), config, metrics);
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "heartbeat-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(
        StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("quotaflow-beat").toString());
    final Instant start = clock.instant();
    try (TopologyTestDriver driver =
        new TopologyTestDriver(
            QuotaTopology.build(config.topics(), config, metrics), properties, start)) {
      assertThat(heartbeats.names()).singleElement().asString().startsWith("stream task ");

      // Idle (no record at all): the thread's punctuations still beat.
      for (int round = 0; round < 10; round++) {
        clock.advance(TaskHeartbeat.INTERVAL);
        driver.advanceWallClockTime(TaskHeartbeat.INTERVAL);
        assertThat(heartbeats.silent()).isEmpty();
      }

      // Wedged: time passes but the thread never gets back to its punctuations.
      clock.advance(Duration.ofSeconds(31));
      assertThat(heartbeats.silent())
          .singleElement()
          .asString()
          .startsWith("stream task ")
          .contains("silent for 31 s (allowed 30 s)");
    }
    assertThat(heartbeats.names()).as("a closed task is no longer watched").isEmpty();
  }
}

package io.quotaflow.bench.pipeline;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** The settings of the benchmark's own consumers: no group, committed records only. */
final class ReadCommitted {

  private ReadCommitted() {}

  /** A consumer without a group that reads only committed records, {@code maxPoll} at a time. */
  static Map<String, Object> settings(final String bootstrapServers, final int maxPoll) {
    return Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrapServers,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
        false,
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
        maxPoll);
  }
}

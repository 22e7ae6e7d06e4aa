package io.quotaflow.local;

import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.config.HistorySettings;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The configuration of the engine {@code quotaflow local} runs: settings that suit one process on a
 * laptop (one partition, fast commits, a short history step, a static member), then the scenario's,
 * then the user's, then what local decides itself.
 */
final class LocalEngineConfig {

  /** Streams' part of a stop that must end within 5 s. */
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(3);

  private LocalEngineConfig() {}

  /**
   * The local engine's configuration: local's defaults, then the user's {@code --config} and {@code
   * --set}, then what local decides itself (Kafka, state directory, the plugin's port).
   *
   * @throws IllegalArgumentException naming the setting whose value does not parse
   */
  static EngineConfig of(
      final LocalSettings settings, final String bootstrapServers, final Path dataDir) {
    final EngineConfig.Builder builder =
        EngineConfig.builder()
            .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
            .set(StreamsConfig.APPLICATION_ID_CONFIG, LocalRun.APPLICATION_ID)
            .set(StreamsConfig.STATE_DIR_CONFIG, dataDir.resolve("state").toString())
            // Seen in the table within a second rather than after the default 30 s commit.
            .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
            .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500")
            // A static member: restarted after a crash, it takes its tasks back at once instead
            // of waiting for its predecessor's session to end.
            .set(
                StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                LocalRun.APPLICATION_ID + "-" + GroupMembership.instanceName())
            .set(EngineSettings.TOPIC_PARTITIONS.key(), "1")
            .set(EngineSettings.REVOKE_CHECK_INTERVAL.key(), "500ms")
            // A scenario plays in seconds: the web view's chart of the last 10 minutes shows it
            // step by step only if the history is kept at a few seconds rather than a minute.
            .set(HistorySettings.HISTORY_STEP.key(), "5s")
            .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), SHUTDOWN_TIMEOUT.toSeconds() + "s")
            // The scenario's settings (fair share with memory, say) over local's defaults.
            .setAll(settings.scenario().map(Scenario::settings).orElse(Map.of()))
            // The user's settings over those, under what local must decide itself.
            .setAll(settings.engineSettings())
            .set(PluginSettings.PLAIN_HTTP.key(), "true")
            .set(
                PluginSettings.BIND_ADDRESS.key(),
                InetAddress.getLoopbackAddress().getHostAddress())
            .set(PluginSettings.PORT.key(), Integer.toString(settings.httpPort()));
    // --revoke-delay, else a --set or --config revoke.delay, else the scenario's.
    settings
        .revokeDelay()
        .or(
            () ->
                settings.engineSettings().containsKey(EngineSettings.REVOKE_DELAY.key())
                    ? Optional.empty()
                    : settings.scenario().flatMap(Scenario::revokeDelay))
        .ifPresent(delay -> builder.set(EngineSettings.REVOKE_DELAY.key(), delay));
    return builder.build();
  }
}

package io.quotaflow.admission.http;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.CachedAccess;
import io.quotaflow.admission.http.auth.KubernetesAccess;
import io.quotaflow.admission.machine.denials.KafkaDenialLog;
import io.quotaflow.admission.people.view.KafkaEvictionFeed;
import io.quotaflow.admission.state.StreamsClusterState;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.history.HistoryConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Starts the admission plugin beside a running engine: settings from the engine's configuration
 * (the {@code admission.*} keys of {@link PluginSettings}), state from its interactive stores,
 * meters in its registry. {@code application.server}, when set, names this instance for forwarding
 * and must use the plugin's port.
 */
public final class EnginePlugin {

  /** How long a cluster's group specifications are reused before they are read again. */
  static final Duration SPEC_TTL = Duration.ofSeconds(1);

  /** How many of the last eviction records of each partition the web view reads at start. */
  static final int EVICTION_TAIL = 200;

  private EnginePlugin() {}

  /**
   * The started plugin, or empty when {@code admission.enabled=false}.
   *
   * @throws IllegalArgumentException when a setting is invalid, or {@code application.server}'s
   *     port is not the plugin's
   * @throws IllegalStateException when the server cannot start
   */
  /**
   * People's authentication as the settings say: with {@code kubernetes}, the API server of the
   * cluster the engine runs in (in-cluster service account, or the kubeconfig) answers.
   */
  static ApiAuth apiAuth(Map<String, String> settings) {
    if (!PluginSettings.kubernetesAuth(settings)) {
      return ApiAuth.NONE;
    }
    return ApiAuth.with(
        new CachedAccess(
            new KubernetesAccess(new KubernetesClientBuilder().build()),
            PluginSettings.authCacheTtl(settings),
            Clock.systemUTC(),
            PluginSettings.authCacheEntries(settings)),
        PluginSettings.authMaxTokenBytes(settings));
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "";
    }
  }

  public static Optional<AdmissionServer> start(
      EngineConfig config, Engine engine, PrometheusMeterRegistry registry) {
    return start(config, engine, registry, Optional.empty());
  }

  /**
   * As {@link #start(EngineConfig, Engine, PrometheusMeterRegistry)}, people authenticated by
   * {@code auth} when given (local's demo cluster), else as the settings say.
   */
  public static Optional<AdmissionServer> start(
      EngineConfig config,
      Engine engine,
      PrometheusMeterRegistry registry,
      Optional<ApiAuth> auth) {
    if (!PluginSettings.enabled(config.kafka())) {
      return Optional.empty();
    }
    final PluginConfig plugin = PluginSettings.config(config.kafka());
    final Optional<HostInfo> self =
        config
            .kafka(StreamsConfig.APPLICATION_SERVER_CONFIG)
            .filter(endpoint -> !endpoint.isBlank())
            .map(HostInfo::buildFromEndpoint);
    if (self.isPresent() && plugin.port() != 0 && self.get().port() != plugin.port()) {
      throw new IllegalArgumentException(
          StreamsConfig.APPLICATION_SERVER_CONFIG
              + " "
              + self.get()
              + " must use the admission port "
              + plugin.port()
              + ": other instances forward requests there");
    }
    final StreamsClusterState state =
        new StreamsClusterState(
            engine.streams(),
            self,
            Clock.systemUTC(),
            SPEC_TTL,
            engine::problem,
            HistoryConfig.tiers(config),
            config.deviceClasses(),
            engine.metrics().heartbeats());
    return Optional.of(
        AdmissionServer.builder(plugin, state)
            .options(config.quotaOptions())
            .registry(registry)
            .limits(PluginSettings.limits(config.kafka()))
            .forwarding(PluginSettings.forwarding(config.kafka()))
            .groupGaugesMax(config.get(EngineSettings.METRICS_GROUP_GAUGES_MAX))
            .auth(auth.orElseGet(() -> apiAuth(config.kafka())))
            .allowUnauthenticatedWebhooks(
                PluginSettings.allowUnauthenticatedWebhooks(config.kafka()))
            .revokeDelay(
                config.get(EngineSettings.RECLAIM_ENABLED)
                    ? Optional.of(config.get(EngineSettings.REVOKE_DELAY))
                    : Optional.empty())
            .denials(
                PluginSettings.throttled(
                    config.kafka(),
                    new KafkaDenialLog(
                        config.kafka(),
                        config.topics().denials(),
                        registry,
                        Clock.systemUTC(),
                        self.map(HostInfo::host).orElseGet(EnginePlugin::hostName)),
                    Clock.systemUTC(),
                    registry))
            .evictions(
                activity ->
                    new KafkaEvictionFeed(config.kafka(), config.topics(), activity, EVICTION_TAIL)
                        .start())
            .build()
            .start());
  }
}

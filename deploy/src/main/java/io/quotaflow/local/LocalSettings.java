package io.quotaflow.local;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What {@code quotaflow local} runs.
 *
 * @param httpPort the admission plugin's port on loopback; 0 picks a free one
 * @param kafkaPort the embedded broker's port; empty picks a free one
 * @param dataDir where the broker and the engine keep their data; empty: a temporary directory
 *     removed on exit
 * @param bootstrapServers an existing Kafka to use instead of the embedded broker
 * @param kubeconfig the kubeconfig of {@code clusters}; empty: the default one
 * @param clusters real clusters to watch instead of the demo cluster, name to kubeconfig context
 * @param examples the manifests the demo cluster starts with
 * @param scenario a scenario to play against the demo cluster
 * @param revokeDelay how long a group stays over-used before its pods are evicted; empty: the
 *     scenario's, else the engine's default
 * @param evict on real clusters, evict for real and write quota status (default: dry-run)
 * @param auth whether people sign in to the query API and the web view (on the demo cluster, with
 *     the two tokens local prints; on real clusters, with tokens of the first one)
 * @param engineSettings engine, admission plugin and Kafka settings given with {@code --config} and
 *     {@code --set}, in that order; never one that {@code local} sets itself ({@link #OWN_KEYS})
 */
record LocalSettings(
    int httpPort,
    OptionalInt kafkaPort,
    Optional<Path> dataDir,
    Optional<String> bootstrapServers,
    Optional<Path> kubeconfig,
    Map<String, String> clusters,
    Path examples,
    Optional<Scenario> scenario,
    Optional<String> revokeDelay,
    boolean evict,
    Map<String, String> engineSettings,
    boolean auth) {

  /**
   * The settings {@code local} decides itself: where Kafka and the state are, and the plugin on
   * plain HTTP on loopback at {@code --http-port}. Given anyway, they would be silently replaced.
   */
  static final Map<String, String> OWN_KEYS =
      Map.of(
          "bootstrap.servers", "--bootstrap-servers",
          "application.id", "nothing (local's engine is quotaflow-local)",
          "state.dir", "--data-dir",
          "admission.port", "--http-port",
          "admission.bind.address", "nothing (local listens on loopback)",
          "admission.plain.http", "nothing (local serves plain HTTP on loopback)",
          "admission.tls.cert.file", "nothing (local serves plain HTTP on loopback)",
          "admission.tls.key.file", "nothing (local serves plain HTTP on loopback)");

  /** Checks the combination. */
  LocalSettings {
    Objects.requireNonNull(kafkaPort, "kafkaPort");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    clusters = Map.copyOf(clusters);
    Objects.requireNonNull(examples, "examples");
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(revokeDelay, "revokeDelay");
    if (scenario.isPresent() && !clusters.isEmpty()) {
      throw new IllegalArgumentException(
          "--scenario plays against the demo cluster; it cannot be combined with --cluster");
    }
    if (kubeconfig.isPresent() && clusters.isEmpty()) {
      throw new IllegalArgumentException(
          "--kubeconfig needs at least one --cluster NAME=CONTEXT to watch");
    }
    engineSettings = Collections.unmodifiableMap(new LinkedHashMap<>(engineSettings));
    for (final String key : engineSettings.keySet()) {
      if (OWN_KEYS.containsKey(key)) {
        throw new IllegalArgumentException(
            key + " is set by local itself; to change it use " + OWN_KEYS.get(key));
      }
    }
    if (bootstrapServers.isPresent() && kafkaPort.isPresent()) {
      throw new IllegalArgumentException(
          "--kafka-port is the embedded broker's port; with --bootstrap-servers none starts");
    }
  }

  /** Whether the demo cluster runs (no real clusters given). */
  boolean demo() {
    return clusters.isEmpty();
  }

  /** The defaults: the demo cluster loaded with {@code examples}, everything on free ports. */
  static LocalSettings demo(final Path examples, final int httpPort) {
    return new LocalSettings(
        httpPort,
        OptionalInt.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Map.of(),
        examples,
        Optional.empty(),
        Optional.empty(),
        false,
        Map.of(),
        false);
  }

  /** These settings with a scenario. */
  LocalSettings withScenario(final Scenario value) {
    return new LocalSettings(
        httpPort,
        kafkaPort,
        dataDir,
        bootstrapServers,
        kubeconfig,
        clusters,
        examples,
        Optional.of(value),
        revokeDelay,
        evict,
        engineSettings,
        auth);
  }

  /** These settings with one more engine or plugin setting, as {@code --set key=value} gives it. */
  LocalSettings withSetting(final String key, final String value) {
    final Map<String, String> settings = new LinkedHashMap<>(engineSettings);
    settings.put(key, value);
    return new LocalSettings(
        httpPort,
        kafkaPort,
        dataDir,
        bootstrapServers,
        kubeconfig,
        clusters,
        examples,
        scenario,
        revokeDelay,
        evict,
        settings,
        auth);
  }

  /** These settings with people signing in, or not. */
  LocalSettings withAuth(final boolean value) {
    return new LocalSettings(
        httpPort,
        kafkaPort,
        dataDir,
        bootstrapServers,
        kubeconfig,
        clusters,
        examples,
        scenario,
        revokeDelay,
        evict,
        engineSettings,
        value);
  }
}

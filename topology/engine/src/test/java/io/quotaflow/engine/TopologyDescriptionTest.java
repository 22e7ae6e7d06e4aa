package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.errors.TopologyException;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;

/**
 * The topology's shape is part of the application's persistent identity (store, changelog and
 * repartition topic names): it is pinned by a golden file. When a change is intended, the failing
 * test writes the new description to {@code target/} under the golden file's name; review it and
 * copy it over the one in {@code src/test/resources/io/quotaflow/engine/}.
 */
class TopologyDescriptionTest {
  private static final String GOLDEN = "topology-description.txt";
  private static final String GOLDEN_PARTITIONED_BY_CLUSTER =
      "topology-description-partitioned-by-cluster.txt";
  private static final String GOLDEN_REPARTITION = "topology-description-repartition.txt";

  @Test
  void topologyDescriptionMatchesTheGoldenFile() throws IOException {
    assertMatchesGolden(EngineConfig.defaults(), GOLDEN);
  }

  /**
   * Fair share with memory (docs/semantics.md section 24) adds its store only when it is on: off,
   * the topology is the golden one; on, it differs by the fairshare-memory store alone.
   */
  @Test
  void fairShareMemoryAddsItsStoreOnlyWhenOn() throws IOException {
    final String off = assertMatchesGolden(EngineConfig.defaults(), GOLDEN);
    final String on =
        QuotaTopology.build(
                TopicCatalogue.withDefaultPrefix(),
                EngineConfig.builder()
                    .set(QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key(), "true")
                    .build(),
                EngineMetrics.discarding())
            .describe()
            .toString();

    assertThat(off).doesNotContain(TopologyNames.FAIRSHARE_MEMORY_STORE);
    assertThat(on).contains(TopologyNames.FAIRSHARE_MEMORY_STORE);
    assertThat(sortedStores(on.replace(", " + TopologyNames.FAIRSHARE_MEMORY_STORE, "")))
        .isEqualTo(sortedStores(off));
  }

  /**
   * The description with each processor's store list sorted: Kafka Streams prints a hash set, whose
   * order changes when a store is added (twelve stores resize it).
   */
  private static String sortedStores(final String described) {
    final Matcher lists = Pattern.compile("\\(stores: \\[([^]]*)]\\)").matcher(described);
    final StringBuilder sorted = new StringBuilder();
    while (lists.find()) {
      final String names = String.join(", ", new TreeSet<>(List.of(lists.group(1).split(", "))));
      lists.appendReplacement(sorted, Matcher.quoteReplacement("(stores: [" + names + "])"));
    }
    lists.appendTail(sorted);
    return sorted.toString();
  }

  @Test
  void theDefaultTopologyIsTheOneForInputsPartitionedByCluster() throws IOException {
    final EngineConfig explicit =
        EngineConfig.builder()
            .set(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "true")
            .build();

    assertThat(assertMatchesGolden(explicit, GOLDEN_PARTITIONED_BY_CLUSTER))
        .isEqualTo(assertMatchesGolden(EngineConfig.defaults(), GOLDEN));
  }

  @Test
  void forInputsPlacedByKeyEveryInputIsRepartitionedByCluster() throws IOException {
    final EngineConfig config =
        EngineConfig.builder()
            .set(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "false")
            .build();

    final String described = assertMatchesGolden(config, GOLDEN_REPARTITION);

    // One repartition topic for the four inputs; the cluster-quota processor reads it in
    // sub-topology 1.
    assertThat(described)
        .contains("Sink: cluster-events-repartition-sink (topic: cluster-events-repartition)")
        .doesNotContain("eviction-results-by-cluster")
        .containsPattern("(?s)Sub-topology: 1.*cluster-quota")
        .doesNotContain("Sub-topology: 2");
  }

  @Test
  void withInputsPartitionedByClusterOnlyTheEvictionResultsAreRepartitioned() throws IOException {
    final String described = assertMatchesGolden(EngineConfig.defaults(), GOLDEN);

    // The inputs are read where they are; the results, which the executor writes keyed by pod, are
    // moved to their cluster's partition. The cluster-quota processor keeps sub-topology 0 (its
    // task ids, hence state directories, are those of a topology without results).
    assertThat(described)
        .doesNotContain("cluster-events-repartition")
        .contains("Sink: eviction-results-by-cluster-repartition-sink")
        .doesNotContainPattern("KSTREAM-|KTABLE-|KSTORE-")
        .containsPattern("(?s)Sub-topology: 0.*cluster-quota.*Sub-topology: 1")
        .doesNotContain("Sub-topology: 2");
  }

  /** The description of the topology built with {@code config}, after comparing it. */
  private String assertMatchesGolden(final EngineConfig config, final String goldenName)
      throws IOException {
    final String described =
        QuotaTopology.build(TopicCatalogue.withDefaultPrefix(), config, EngineMetrics.discarding())
            .describe()
            .toString();
    final String golden;
    try (InputStream in = getClass().getResourceAsStream(goldenName)) {
      golden = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!described.equals(golden)) {
      final Path candidate = Path.of(System.getProperty("basedir", "."), "target", goldenName);
      Files.createDirectories(candidate.getParent());
      Files.writeString(candidate, described, StandardCharsets.UTF_8);
    }
    assertThat(described)
        .as("topology description; the new one is in target/" + goldenName)
        .isEqualTo(golden);
    return described;
  }

  @Test
  void everyStoreAndInternalTopicIsNamedExplicitly() {
    final String described =
        QuotaTopology.build(
                TopicCatalogue.withDefaultPrefix(),
                EngineConfig.defaults(),
                EngineMetrics.discarding())
            .describe()
            .toString();

    assertThat(described)
        .doesNotContainPattern("KSTREAM-|KTABLE-|KSTORE-")
        .contains(
            "Sink: eviction-results-by-cluster-repartition-sink"
                + " (topic: eviction-results-by-cluster-repartition)")
        .contains(
            TopologyNames.CLUSTER_INPUTS_STORE,
            TopologyNames.RUNTIME_STORE,
            TopologyNames.POD_ASSIGNMENTS_STORE,
            TopologyNames.OVER_USED_SINCE_STORE,
            TopologyNames.EVICTION_LEDGER_STORE,
            TopologyNames.EVICTION_RETRY_AT_STORE);
  }

  @Test
  void aGeneratedInternalNameFailsTheBuildUnderTheEngineSettings() {
    // The guard QuotaTopology relies on: with explicit naming enforced, an unnamed repartition
    // topic is a build error rather than a silently generated name.
    final Properties properties =
        QuotaTopology.streamsProperties(
            TopicCatalogue.withDefaultPrefix(),
            EngineConfig.defaults(),
            EngineMetrics.discarding());
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    final StreamsBuilder builder =
        new StreamsBuilder(new TopologyConfig(new StreamsConfig(properties)));
    builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("in-source"))
        .selectKey((key, value) -> value)
        .groupByKey()
        .count();

    assertThatThrownBy(builder::build).isInstanceOf(TopologyException.class);
  }
}

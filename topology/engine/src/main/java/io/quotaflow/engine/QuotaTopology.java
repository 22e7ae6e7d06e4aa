package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.errors.RejectingDeserializationExceptionHandler;
import io.quotaflow.engine.errors.RejectingProcessingExceptionHandler;
import io.quotaflow.engine.errors.RejectingProductionExceptionHandler;
import io.quotaflow.engine.memory.BoundedRocksDbMemory;
import io.quotaflow.engine.memory.MemoryFit;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The engine's Kafka Streams topology, built by one method shared by the engine and its tests.
 *
 * <pre>
 * pods.v1     ─► pods-to-cluster-events     ─┐  (each task reads the same partition of the five
 * quotas.v1   ─► quotas-to-cluster-events   ─┤   inputs: whole clusters, placed by ClusterPartitioner)
 * nodes.v1    ─► nodes-to-cluster-events    ─┤
 * profiles.v1 ─► profiles-to-cluster-events ─┤
 * podgroups.v1 ─► podgroups-to-cluster-events ┼─► cluster-quota ─► runtime.v1, pod-classes.v1,
 *                                            │                    evictions.v1
 * eviction-results.v1 ─► eviction-results-to-cluster-events ─┬─► eviction-results-by-cluster
 * denials.v1          ─► denials-to-cluster-events ──────────┘   (repartition to the cluster's
 *                                                                 partition) ─┘
 *          stores: cluster-inputs, runtime, pod-assignments, and each feature's (ClusterFeatures):
 *                  over-used-since, eviction-ledger, eviction-retry-at, group-history-*,
 *                  cluster-writers, reservations, reservation-intruders-since, input-freshness,
 *                  fairshare-memory
 * </pre>
 *
 * <p>With {@code inputs.partitioned.by.cluster=false} (inputs placed by key, by producers other
 * than quotaflow's connectors) the five inputs are merged and re-keyed by cluster through the one
 * cluster-events repartition topic instead, and cluster-quota reads that.
 *
 * <p>Every node, store and internal topic is named in {@link TopologyNames}; building with a
 * generated name fails (see {@link #streamsProperties}).
 */
public final class QuotaTopology {
  private QuotaTopology() {}

  /**
   * The topology for {@code config}.
   *
   * @param topics the topics, usually {@code config.topics()}
   * @param config the engine configuration
   * @param metrics where the processors record their meters
   */
  public static Topology build(
      final TopicCatalogue topics, final EngineConfig config, final EngineMetrics metrics) {
    return build(topics, config, metrics, RestoreAudit.trusting());
  }

  /**
   * The topology for {@code config}, its tasks' restores checked by {@code restores} when they are
   * re-created (see {@link RestoreAudit}).
   */
  public static Topology build(
      final TopicCatalogue topics,
      final EngineConfig config,
      final EngineMetrics metrics,
      final RestoreAudit restores) {
    return build(topics, config, metrics, restores, InputResumeAudit.trusting());
  }

  /**
   * The topology for {@code config}, its tasks' restores checked by {@code restores} when they are
   * re-created, and where each task resumes its inputs by {@code resumes} (see {@link
   * InputResumeAudit}).
   */
  public static Topology build(
      final TopicCatalogue topics,
      final EngineConfig config,
      final EngineMetrics metrics,
      final RestoreAudit restores,
      final InputResumeAudit resumes) {
    final StreamsBuilder builder =
        new StreamsBuilder(new TopologyConfig(new StreamsConfig(topologyProperties(config))));

    final KStream<String, ClusterEvent> pods =
        events(
            builder,
            topics.pods(),
            EngineSerdes.POD_VALUES,
            TopologyNames.PODS_SOURCE,
            TopologyNames.PODS_TO_EVENTS,
            InputEvents::pod,
            metrics,
            placementCheck(config),
            InputKind.POD);
    final KStream<String, ClusterEvent> quotas =
        events(
            builder,
            topics.quotas(),
            EngineSerdes.QUOTA_VALUES,
            TopologyNames.QUOTAS_SOURCE,
            TopologyNames.QUOTAS_TO_EVENTS,
            InputEvents::quota,
            metrics,
            placementCheck(config),
            InputKind.QUOTA);
    final KStream<String, ClusterEvent> nodes =
        events(
            builder,
            topics.nodes(),
            EngineSerdes.NODE_VALUES,
            TopologyNames.NODES_SOURCE,
            TopologyNames.NODES_TO_EVENTS,
            InputEvents::node,
            metrics,
            placementCheck(config),
            InputKind.NODE);

    final KStream<String, ClusterEvent> profiles =
        events(
            builder,
            topics.profiles(),
            EngineSerdes.PROFILE_VALUES,
            TopologyNames.PROFILES_SOURCE,
            TopologyNames.PROFILES_TO_EVENTS,
            InputEvents::profile,
            metrics,
            placementCheck(config),
            InputKind.PROFILE);

    final KStream<String, ClusterEvent> podGroups =
        events(
            builder,
            topics.podGroups(),
            EngineSerdes.PODGROUP_VALUES,
            TopologyNames.PODGROUPS_SOURCE,
            TopologyNames.PODGROUPS_TO_EVENTS,
            InputEvents::podGroup,
            metrics,
            placementCheck(config),
            InputKind.PODGROUP);
    // Dynamic Resource Allocation objects: what pods' claims are counted from (semantics 22).
    final KStream<String, ClusterEvent> deviceClasses =
        events(
            builder,
            topics.deviceClasses(),
            topics.deviceClasses().valueSerde(),
            TopologyNames.DEVICE_CLASSES_SOURCE,
            TopologyNames.DEVICE_CLASSES_TO_EVENTS,
            (key, value, source) ->
                InputEvents.dra(ClusterEventKind.DEVICE_CLASS, key, value, source),
            metrics,
            placementCheck(config),
            InputKind.DEVICE_CLASS);
    final KStream<String, ClusterEvent> resourceClaims =
        events(
            builder,
            topics.resourceClaims(),
            topics.resourceClaims().valueSerde(),
            TopologyNames.RESOURCE_CLAIMS_SOURCE,
            TopologyNames.RESOURCE_CLAIMS_TO_EVENTS,
            (key, value, source) ->
                InputEvents.dra(ClusterEventKind.RESOURCE_CLAIM, key, value, source),
            metrics,
            placementCheck(config),
            InputKind.RESOURCE_CLAIM);
    final KStream<String, ClusterEvent> resourceClaimTemplates =
        events(
            builder,
            topics.resourceClaimTemplates(),
            topics.resourceClaimTemplates().valueSerde(),
            TopologyNames.RESOURCE_CLAIM_TEMPLATES_SOURCE,
            TopologyNames.RESOURCE_CLAIM_TEMPLATES_TO_EVENTS,
            (key, value, source) ->
                InputEvents.dra(ClusterEventKind.RESOURCE_CLAIM_TEMPLATE, key, value, source),
            metrics,
            placementCheck(config),
            InputKind.RESOURCE_CLAIM_TEMPLATE);
    final KStream<String, ClusterEvent> resourceSlices =
        events(
            builder,
            topics.resourceSlices(),
            topics.resourceSlices().valueSerde(),
            TopologyNames.RESOURCE_SLICES_SOURCE,
            TopologyNames.RESOURCE_SLICES_TO_EVENTS,
            (key, value, source) ->
                InputEvents.dra(ClusterEventKind.RESOURCE_SLICE, key, value, source),
            metrics,
            placementCheck(config),
            InputKind.RESOURCE_SLICE);

    // Results are written by the eviction executor keyed by pod, on no particular partition.
    final KStream<String, ClusterEvent> results =
        events(
            builder,
            topics.evictionResults(),
            topics.evictionResults().valueSerde(),
            TopologyNames.EVICTION_RESULTS_SOURCE,
            TopologyNames.EVICTION_RESULTS_TO_EVENTS,
            InputEvents::evictionResult,
            metrics,
            0,
            null);
    // Denials are written keyed by pod too, by the admission plugin; they only feed the history.
    final KStream<String, ClusterEvent> denials =
        events(
            builder,
            topics.denials(),
            topics.denials().valueSerde(),
            TopologyNames.DENIALS_SOURCE,
            TopologyNames.DENIALS_TO_EVENTS,
            InputEvents::denial,
            metrics,
            0,
            null);
    final KStream<String, ClusterEvent> keyedByPod =
        results.merge(denials, Named.as(TopologyNames.MERGE_DENIALS));

    final KStream<String, ClusterEvent> inputs =
        pods.merge(quotas, Named.as(TopologyNames.MERGE_POD_AND_QUOTA_EVENTS))
            .merge(nodes, Named.as(TopologyNames.MERGE_EVENTS))
            .merge(profiles, Named.as(TopologyNames.MERGE_PROFILE_EVENTS))
            .merge(podGroups, Named.as(TopologyNames.MERGE_PODGROUP_EVENTS))
            .merge(deviceClasses, Named.as(TopologyNames.MERGE_DEVICE_CLASS_EVENTS))
            .merge(resourceClaims, Named.as(TopologyNames.MERGE_RESOURCE_CLAIM_EVENTS))
            .merge(
                resourceClaimTemplates,
                Named.as(TopologyNames.MERGE_RESOURCE_CLAIM_TEMPLATE_EVENTS))
            .merge(resourceSlices, Named.as(TopologyNames.MERGE_RESOURCE_SLICE_EVENTS));
    final KStream<String, ClusterEvent> events;
    if (partitionedByCluster(config)) {
      // Inputs already partitioned by cluster need no hop: each task reads whole clusters. Only
      // the results go to their cluster's partition, placed as the connectors place the inputs.
      events =
          inputs.merge(
              keyedByPod.repartition(
                  Repartitioned.<String, ClusterEvent>as(TopologyNames.EVICTION_RESULTS_BY_CLUSTER)
                      .withKeySerde(Serdes.String())
                      .withValueSerde(EngineSerdes.EVENTS)
                      .withNumberOfPartitions(config.get(EngineSettings.TOPIC_PARTITIONS))
                      .withStreamPartitioner(QuotaTopology::clusterPartition)),
              Named.as(TopologyNames.MERGE_EVICTION_RESULTS));
    } else {
      events =
          inputs
              .merge(keyedByPod, Named.as(TopologyNames.MERGE_EVICTION_RESULTS))
              .repartition(
                  Repartitioned.<String, ClusterEvent>as(TopologyNames.CLUSTER_EVENTS)
                      .withKeySerde(Serdes.String())
                      .withValueSerde(EngineSerdes.EVENTS));
    }
    // The processor's supplier declares its stores (the trees' and each feature's): Kafka Streams
    // adds and connects them.
    events.process(
        new ClusterQuotaSupplier(config, metrics, restores, resumes),
        Named.as(TopologyNames.CLUSTER_QUOTA));

    final Topology topology = builder.build();
    sink(
        topology, TopologyNames.RUNTIME_SINK, topics.runtime(), EngineSerdes.RUNTIMES.serializer());
    sink(
        topology,
        TopologyNames.POD_CLASSES_SINK,
        topics.podClasses(),
        EngineSerdes.CLASSES.serializer());
    sink(
        topology,
        TopologyNames.EVICTIONS_SINK,
        topics.evictions(),
        topics.evictions().valueSerializer());
    return topology;
  }

  /**
   * The Kafka Streams properties of the engine: the configured Kafka settings, the dead-letter
   * topic and handlers, explicit naming enforced, and {@code metrics} for the handlers.
   */
  public static Properties streamsProperties(
      final TopicCatalogue topics, final EngineConfig config, final EngineMetrics metrics) {
    final Properties properties = config.kafkaProperties();
    properties.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    properties.put(
        StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejected().name());
    properties.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        RejectingDeserializationExceptionHandler.class);
    properties.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        RejectingProcessingExceptionHandler.class);
    properties.put(
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
        RejectingProductionExceptionHandler.class);
    // The engine has no global stores; enabled so the handler already covers any added later.
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    properties.put(EngineMetrics.CONFIG_KEY, metrics);
    if (MemoryFit.usesRocksDb(config)) {
      properties.putIfAbsent(
          StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
      properties.put(
          BoundedRocksDbMemory.MEMORY_CONFIG,
          Long.toString(config.get(EngineSettings.ROCKSDB_MEMORY)));
    }
    return properties;
  }

  /**
   * Every store of {@code topology}, and whether it is on the heap: the history's where {@code
   * history.stores} puts it, the others where {@code state.stores} does.
   */
  public static Map<String, Boolean> storesOnHeap(
      final TopologyDescription topology, final EngineConfig config) {
    final Map<String, Boolean> onHeap = new TreeMap<>();
    for (final TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
      for (final TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Processor processor) {
          for (final String store : processor.stores()) {
            final boolean history = TopologyNames.isHistoryStore(store);
            final StoreKind kind =
                config.get(history ? EngineSettings.HISTORY_STORES : EngineSettings.STATE_STORES);
            onHeap.put(store, kind == StoreKind.IN_MEMORY);
          }
        }
      }
    }
    return onHeap;
  }

  /** Enough of the configuration to build the topology, which needs no broker. */
  private static Properties topologyProperties(final EngineConfig config) {
    final Properties properties = config.kafkaProperties();
    properties.putIfAbsent(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    return properties;
  }

  private static <K, V> KStream<String, ClusterEvent> events(
      final StreamsBuilder builder,
      final Topic<K, V> topic,
      final Serde<V> values,
      final String sourceName,
      final String mapperName,
      final InputEvents.Reader<K, V> reader,
      final EngineMetrics metrics,
      final int placementCheck,
      final InputKind markerKind) {
    return builder.stream(
            topic.name(), Consumed.with(topic.keySerde(), values).withName(sourceName))
        .process(
            () -> new ClusterEventMapper<>(reader, metrics, placementCheck, markerKind),
            Named.as(mapperName));
  }

  /** The partition of a cluster's events: the one its inputs are on (see ClusterPartitioner). */
  private static Optional<Set<Integer>> clusterPartition(
      final String topic, final String cluster, final ClusterEvent event, final int partitions) {
    return Optional.of(Set.of(ClusterPartitioner.partitionOf(cluster, partitions)));
  }

  private static boolean partitionedByCluster(final EngineConfig config) {
    return config.get(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER);
  }

  /** The partition count records are checked against, or 0 when placement is not checked. */
  private static int placementCheck(final EngineConfig config) {
    return partitionedByCluster(config) ? config.get(EngineSettings.TOPIC_PARTITIONS) : 0;
  }

  private static <K, V> void sink(
      final Topology topology,
      final String name,
      final Topic<K, V> topic,
      final Serializer<V> valueSerializer) {
    topology.addSink(
        name, topic.name(), topic.keySerializer(), valueSerializer, TopologyNames.CLUSTER_QUOTA);
  }
}

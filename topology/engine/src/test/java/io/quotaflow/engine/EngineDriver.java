package io.quotaflow.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryQueries;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.schemas.DenialOccasion;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.WriterHeaders;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The engine's topology in a {@link TopologyTestDriver}, with typed inputs, a model of the inputs
 * given so far (to compute the expected result with {@link QuotaCalculator}), and the outputs read
 * back. Wall-clock time only moves when a test says so.
 */
final class EngineDriver implements AutoCloseable {
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  static final String APPLICATION_ID = "quotaflow-engine-test";

  private final TopicCatalogue topics = TopicCatalogue.withDefaultPrefix();
  private final EngineConfig config;
  private final Path stateDir;
  private final EngineMetrics metrics;
  private TopologyTestDriver driver;
  // What was last written of each object, for snapshots that re-send it.
  private final Map<PodKey, PodState> sentPods = new LinkedHashMap<>();
  private final Map<QuotaKey, QuotaSpec> sentQuotas = new LinkedHashMap<>();
  private final Map<NodeKey, NodeState> sentNodes = new LinkedHashMap<>();
  private TestInputTopic<PodKey, PodState> pods;
  private TestInputTopic<QuotaKey, QuotaSpec> quotas;
  private TestInputTopic<NodeKey, NodeState> nodes;
  private TestInputTopic<ProfileKey, QuotaProfileSpec> profiles;
  private TestInputTopic<PodGroupKey, PodGroupSpec> podGroups;
  private TestInputTopic<PodKey, EvictionResult> evictionResults;
  private TestInputTopic<PodKey, PodDenial> denials;
  private TestInputTopic<DraKey, DeviceClassState> deviceClasses;
  private TestInputTopic<DraKey, ResourceClaimState> resourceClaims;
  private TestInputTopic<DraKey, ResourceClaimTemplateState> resourceClaimTemplates;
  private TestInputTopic<DraKey, ResourceSliceState> resourceSlices;
  private TestOutputTopic<QuotaKey, GroupRuntime> runtime;
  private TestOutputTopic<PodKey, PodQuotaClass> podClasses;
  private TestOutputTopic<PodKey, EvictionCommand> evictions;
  private TestOutputTopic<byte[], byte[]> rejected;

  private final InputModel model = new InputModel();
  private final Map<QuotaKey, GroupRuntime> runtimeTable = new LinkedHashMap<>();
  private Instant wallClock = START;
  private Duration inputAge = Duration.ZERO;
  // Who the following inputs say wrote them (issue 40.12); none: records without writer headers.
  private Optional<WriterHeaders.Writer> writer = Optional.empty();

  EngineDriver() {
    this(settings().build());
  }

  /**
   * The engine's defaults as the driver can run them: one partition per topic. The driver puts
   * every input record on partition 0, so with inputs partitioned by cluster (the default) a
   * cluster hashed to another of six partitions would be rejected; with one partition every cluster
   * is on partition 0, as in a deployment whose topics have a single partition.
   */
  static EngineConfig.Builder settings() {
    return EngineConfig.builder()
        .set(EngineSettings.TOPIC_PARTITIONS.key(), "1")
        // The driver writes inputs as a producer without markers would (tests of markers set it).
        .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false");
  }

  EngineDriver(final EngineConfig config) {
    this.config = config;
    try {
      this.stateDir = Files.createTempDirectory("quotaflow-ttd");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.metrics =
        new EngineMetrics(
            new SimpleMeterRegistry(), config.get(EngineSettings.METRICS_GROUP_GAUGES_MAX));
    open(START);
  }

  private void open(final Instant wallClockStart) {
    this.wallClock = wallClockStart;
    final Properties properties = QuotaTopology.streamsProperties(topics, config, metrics);
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver =
        new TopologyTestDriver(
            QuotaTopology.build(topics, config, metrics), properties, wallClockStart);
    pods = input(topics.pods());
    quotas = input(topics.quotas());
    nodes = input(topics.nodes());
    profiles = input(topics.profiles());
    podGroups = input(topics.podGroups());
    evictionResults = input(topics.evictionResults());
    denials = input(topics.denials());
    deviceClasses = input(topics.deviceClasses());
    resourceClaims = input(topics.resourceClaims());
    resourceClaimTemplates = input(topics.resourceClaimTemplates());
    resourceSlices = input(topics.resourceSlices());
    runtime = output(topics.runtime());
    podClasses = output(topics.podClasses());
    evictions = output(topics.evictions());
    rejected =
        driver.createOutputTopic(
            topics.rejected().name(),
            topics.rejected().keyDeserializer(),
            topics.rejected().valueDeserializer());
  }

  TopicCatalogue topics() {
    return topics;
  }

  TopologyTestDriver driver() {
    return driver;
  }

  RuntimeQueries queries() {
    return RuntimeQueries.of(
        driver.getKeyValueStore(TopologyNames.RUNTIME_STORE),
        driver.getKeyValueStore(TopologyNames.POD_ASSIGNMENTS_STORE),
        driver.getKeyValueStore(TopologyNames.RESERVATIONS_STORE));
  }

  /** The history kept by the engine (section 23); it must be kept. */
  /** Every record written so far to {@code topic} (a changelog, say), as bytes, oldest first. */
  List<TestRecord<byte[], byte[]>> rawRecords(final String topic) {
    return driver
        .createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
        .readRecordsToList();
  }

  /** The window store {@code name}, as the engine holds it. */
  <K, V> org.apache.kafka.streams.state.WindowStore<K, V> windowStore(final String name) {
    return driver.getWindowStore(name);
  }

  HistoryQueries history() {
    final HistoryTiers tiers = HistoryConfig.tiers(config).orElseThrow();
    return new HistoryQueries(
        driver.getWindowStore(TopologyNames.historyStore(tiers.fineStep())),
        driver.getWindowStore(TopologyNames.historyStore(tiers.coarseStep())),
        tiers);
  }

  // Inputs: stamped with the wall-clock time, as a connector publishing a change as it happens.

  EngineDriver putPod(final String cluster, final String namespace, final Inputs.PodBuilder pod) {
    return putPod(cluster, namespace, pod.name(), pod.build());
  }

  EngineDriver putPod(
      final String cluster, final String namespace, final String name, final PodState pod) {
    pods.pipeInput(
        new TestRecord<>(
            new PodKey(cluster, namespace, name), pod, writerHeaders(), publishedAt()));
    sentPods.put(new PodKey(cluster, namespace, name), pod);
    model.putPod(cluster, namespace, name, pod);
    return this;
  }

  EngineDriver deletePod(final String cluster, final String namespace, final String name) {
    pods.pipeInput(
        new TestRecord<>(
            new PodKey(cluster, namespace, name), (PodState) null, writerHeaders(), publishedAt()));
    sentPods.remove(new PodKey(cluster, namespace, name));
    model.deletePod(cluster, namespace, name);
    return this;
  }

  EngineDriver putQuota(final String cluster, final String name, final QuotaSpec spec) {
    quotas.pipeInput(
        new TestRecord<>(new QuotaKey(cluster, name), spec, writerHeaders(), publishedAt()));
    sentQuotas.put(new QuotaKey(cluster, name), spec);
    model.putQuota(cluster, name, spec);
    return this;
  }

  EngineDriver deleteQuota(final String cluster, final String name) {
    quotas.pipeInput(
        new TestRecord<>(
            new QuotaKey(cluster, name), (QuotaSpec) null, writerHeaders(), publishedAt()));
    sentQuotas.remove(new QuotaKey(cluster, name));
    model.deleteQuota(cluster, name);
    return this;
  }

  EngineDriver putNode(final String cluster, final String name, final NodeState node) {
    nodes.pipeInput(
        new TestRecord<>(new NodeKey(cluster, name), node, writerHeaders(), publishedAt()));
    sentNodes.put(new NodeKey(cluster, name), node);
    model.putNode(cluster, name, node);
    return this;
  }

  EngineDriver deleteNode(final String cluster, final String name) {
    nodes.pipeInput(new NodeKey(cluster, name), (NodeState) null, publishedAt());
    sentNodes.remove(new NodeKey(cluster, name));
    model.deleteNode(cluster, name);
    return this;
  }

  /** An ElasticQuotaProfile on profiles.v1 (the input model does not know profiles). */
  EngineDriver putProfile(final String cluster, final String name, final QuotaProfileSpec spec) {
    profiles.pipeInput(new ProfileKey(cluster, name), spec, publishedAt());
    return this;
  }

  /** A PodGroup on podgroups.v1 (the input model does not know PodGroups; no quota reads them). */
  EngineDriver putPodGroup(final PodGroupKey key, final PodGroupSpec spec) {
    podGroups.pipeInput(key, spec, publishedAt());
    return this;
  }

  /** A PodGroup's tombstone on podgroups.v1. */
  EngineDriver deletePodGroup(final PodGroupKey key) {
    podGroups.pipeInput(key, (PodGroupSpec) null, publishedAt());
    return this;
  }

  /** A DeviceClass on deviceclasses.v1 (null: deleted; the input model does not know DRA). */
  EngineDriver putDeviceClass(
      final String cluster, final String name, final DeviceClassState deviceClass) {
    deviceClasses.pipeInput(new DraKey(cluster, "", name), deviceClass, publishedAt());
    return this;
  }

  /** A ResourceClaim on resourceclaims.v1 (null: deleted). */
  EngineDriver putClaim(
      final String cluster,
      final String namespace,
      final String name,
      final ResourceClaimState claim) {
    resourceClaims.pipeInput(new DraKey(cluster, namespace, name), claim, publishedAt());
    return this;
  }

  /** A ResourceClaimTemplate on resourceclaimtemplates.v1 (null: deleted). */
  EngineDriver putClaimTemplate(
      final String cluster,
      final String namespace,
      final String name,
      final ResourceClaimTemplateState template) {
    resourceClaimTemplates.pipeInput(new DraKey(cluster, namespace, name), template, publishedAt());
    return this;
  }

  /** A ResourceSlice on resourceslices.v1 (null: deleted). */
  EngineDriver putSlice(final String cluster, final String name, final ResourceSliceState slice) {
    resourceSlices.pipeInput(new DraKey(cluster, "", name), slice, publishedAt());
    return this;
  }

  /**
   * A connectors' heartbeat of {@code cluster} at the wall-clock time on pods, quotas and nodes.
   */
  EngineDriver heartbeat(final String cluster) {
    final SourceMarker marker = SourceMarkers.heartbeat(cluster, publishedAt(), "test");
    for (final InputKind kind : List.of(InputKind.POD, InputKind.QUOTA, InputKind.NODE)) {
      marker(kind, marker);
    }
    return this;
  }

  /**
   * A heartbeat of {@code cluster}'s pods, quotas and nodes from connectors whose clock is {@code
   * off} from the engine's, as they write it: stamped and sent (record timestamp) by that clock.
   */
  EngineDriver heartbeatWithClockOff(final String cluster, final Duration off) {
    final Instant theirs = publishedAt().plus(off);
    final Headers headers =
        new RecordHeaders()
            .add(SourceMarkers.header(SourceMarkers.heartbeat(cluster, theirs, "test")));
    pods.pipeInput(new TestRecord<>(SourceMarkers.podKey(cluster), null, headers, theirs));
    quotas.pipeInput(new TestRecord<>(SourceMarkers.quotaKey(cluster), null, headers, theirs));
    nodes.pipeInput(new TestRecord<>(SourceMarkers.nodeKey(cluster), null, headers, theirs));
    return this;
  }

  /** The last value written of a pod, written again (as a snapshot re-sends it). */
  EngineDriver resendPod(final String cluster, final String namespace, final String name) {
    final PodKey key = new PodKey(cluster, namespace, name);
    pods.pipeInput(key, sentPods.get(key), publishedAt());
    return this;
  }

  /**
   * A full snapshot of {@code cluster}'s pods, quotas and nodes as the connectors write one: per
   * kind, a start marker, every object written last re-sent, an end marker.
   */
  EngineDriver snapshot(final String cluster, final long epoch) {
    final Instant at = publishedAt();
    marker(InputKind.POD, SourceMarkers.snapshotStart(cluster, epoch, at, "test"));
    sentPods.forEach(
        (key, value) -> {
          if (key.getCluster().equals(cluster)) {
            pods.pipeInput(key, value, at);
          }
        });
    marker(InputKind.POD, SourceMarkers.snapshotEnd(cluster, epoch, -1, at, "test"));
    marker(InputKind.QUOTA, SourceMarkers.snapshotStart(cluster, epoch, at, "test"));
    sentQuotas.forEach(
        (key, value) -> {
          if (key.getCluster().equals(cluster)) {
            quotas.pipeInput(key, value, at);
          }
        });
    marker(InputKind.QUOTA, SourceMarkers.snapshotEnd(cluster, epoch, -1, at, "test"));
    marker(InputKind.NODE, SourceMarkers.snapshotStart(cluster, epoch, at, "test"));
    sentNodes.forEach(
        (key, value) -> {
          if (key.getCluster().equals(cluster)) {
            nodes.pipeInput(key, value, at);
          }
        });
    marker(InputKind.NODE, SourceMarkers.snapshotEnd(cluster, epoch, -1, at, "test"));
    return this;
  }

  /** A marker on the pods topic under the marker key of {@code keyCluster}, whatever it names. */
  EngineDriver markerUnderKeyOf(final String keyCluster, final SourceMarker marker) {
    final Headers headers = new RecordHeaders().add(SourceMarkers.header(marker));
    pods.pipeInput(
        new TestRecord<>(SourceMarkers.podKey(keyCluster), null, headers, publishedAt()));
    return this;
  }

  /** A connectors' marker on the input topic of {@code kind}. */
  EngineDriver marker(final InputKind kind, final SourceMarker marker) {
    final String cluster = marker.getCluster();
    final Headers headers = writerHeaders().add(SourceMarkers.header(marker));
    switch (kind) {
      case POD ->
          pods.pipeInput(
              new TestRecord<>(SourceMarkers.podKey(cluster), null, headers, publishedAt()));
      case QUOTA ->
          quotas.pipeInput(
              new TestRecord<>(SourceMarkers.quotaKey(cluster), null, headers, publishedAt()));
      case NODE ->
          nodes.pipeInput(
              new TestRecord<>(SourceMarkers.nodeKey(cluster), null, headers, publishedAt()));
      case PROFILE ->
          profiles.pipeInput(
              new TestRecord<>(SourceMarkers.profileKey(cluster), null, headers, publishedAt()));
      case PODGROUP ->
          podGroups.pipeInput(
              new TestRecord<>(SourceMarkers.podGroupKey(cluster), null, headers, publishedAt()));
      case DEVICE_CLASS -> draMarker(deviceClasses, cluster, headers);
      case RESOURCE_CLAIM -> draMarker(resourceClaims, cluster, headers);
      case RESOURCE_CLAIM_TEMPLATE -> draMarker(resourceClaimTemplates, cluster, headers);
      case RESOURCE_SLICE -> draMarker(resourceSlices, cluster, headers);
    }
    return this;
  }

  private <V> void draMarker(
      final TestInputTopic<DraKey, V> topic, final String cluster, final Headers headers) {
    topic.pipeInput(new TestRecord<>(SourceMarkers.draKey(cluster), null, headers, publishedAt()));
  }

  /** A result on eviction-results.v1, as the executor writes it, keyed by the pod. */
  EngineDriver putEvictionResult(
      final String cluster,
      final String namespace,
      final String name,
      final EvictionResult result) {
    evictionResults.pipeInput(new PodKey(cluster, namespace, name), result, publishedAt());
    return this;
  }

  /**
   * A denial on denials.v1 as the admission plugin writes it, keyed by the pod, decided at {@code
   * at} (it may be earlier than now: read late).
   */
  EngineDriver putDenial(
      final String cluster,
      final String namespace,
      final String name,
      final String group,
      final String reason,
      final Instant at) {
    denials.pipeInput(
        new PodKey(cluster, namespace, name),
        PodDenial.newBuilder()
            .setGroup(group)
            .setReasonCode(reason)
            .setOccasion(DenialOccasion.WEBHOOK)
            .setAt(at)
            .build(),
        publishedAt());
    return this;
  }

  /** The executor's result with {@code outcome} for {@code command} to pod {@code key}. */
  EngineDriver answer(
      final TestRecord<PodKey, EvictionCommand> command, final EvictionOutcome outcome) {
    final PodKey key = command.key();
    return putEvictionResult(
        key.getCluster(),
        key.getNamespace(),
        key.getName(),
        Inputs.result(command.value(), outcome, wallClock));
  }

  /**
   * Stamps the following inputs {@code age} before the wall-clock time, as records of a backlog the
   * engine reads late.
   */
  EngineDriver inputsPublishedAgo(final Duration age) {
    this.inputAge = age;
    return this;
  }

  /**
   * Has the following inputs (pods, quotas, nodes, markers) carry {@code writer}'s headers, as the
   * connectors write them (issue 40.12).
   */
  EngineDriver writtenBy(final WriterHeaders.Writer writer) {
    this.writer = Optional.of(writer);
    return this;
  }

  /** Has the following inputs carry no writer headers, as older connectors write them. */
  EngineDriver writtenWithoutHeaders() {
    this.writer = Optional.empty();
    return this;
  }

  private Headers writerHeaders() {
    final Headers headers = new RecordHeaders();
    writer.ifPresent(w -> w.addTo(headers));
    return headers;
  }

  private Instant publishedAt() {
    return wallClock.minus(inputAge);
  }

  /** Raw bytes on an input topic, as a broken producer would write them. */
  void pipeRaw(final String topic, final byte[] key, final byte[] value) {
    driver
        .createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer())
        .pipeInput(key, value, publishedAt());
  }

  /** Moves wall-clock time on, firing the punctuators that fall due. */
  EngineDriver advance(final Duration duration) {
    driver.advanceWallClockTime(duration);
    wallClock = wallClock.plus(duration);
    return this;
  }

  /** The interval of the recompute punctuation. */
  Duration recomputeInterval() {
    return config.get(EngineSettings.RECOMPUTE_INTERVAL);
  }

  /** Lets one recomputation run. */
  EngineDriver recompute() {
    return advance(config.get(EngineSettings.RECOMPUTE_INTERVAL));
  }

  // Outputs ---------------------------------------------------------------------------------------

  /** Runtime records emitted since the last call, in order; also applied to {@link #table}. */
  List<TestRecord<QuotaKey, GroupRuntime>> runtimeRecords() {
    final List<TestRecord<QuotaKey, GroupRuntime>> records = runtime.readRecordsToList();
    records.forEach(
        record -> {
          if (record.value() == null) {
            runtimeTable.remove(record.key());
          } else {
            runtimeTable.put(record.key(), record.value());
          }
        });
    return records;
  }

  /** Names of the groups of {@code cluster} emitted since the last read (tombstones included). */
  List<String> emittedGroups(final String cluster) {
    return runtimeRecords().stream()
        .filter(record -> record.key().getCluster().equals(cluster))
        .map(record -> record.key().getName())
        .toList();
  }

  /** The latest runtime record of every group of {@code cluster}, as read from runtime.v1. */
  Map<String, GroupStatus> table(final String cluster) {
    runtimeRecords();
    final Map<String, GroupStatus> table = new TreeMap<>();
    runtimeTable.forEach(
        (key, value) -> {
          if (key.getCluster().equals(cluster)) {
            table.put(key.getName(), OutputRecords.status(key.getName(), value));
          }
        });
    return table;
  }

  /** One group's latest status as read from runtime.v1. */
  GroupStatus group(final String cluster, final String name) {
    final GroupStatus status = table(cluster).get(name);
    if (status == null) {
      throw new AssertionError("No runtime record for " + cluster + "/" + name);
    }
    return status;
  }

  /** The node reservation on group {@code name}'s latest runtime record, if it has one. */
  Optional<GroupReservation> reservation(final String cluster, final String name) {
    runtimeRecords();
    final GroupRuntime record = runtimeTable.get(new QuotaKey(cluster, name));
    if (record == null) {
      throw new AssertionError("No runtime record for " + cluster + "/" + name);
    }
    return record.getReservation();
  }

  /** The core's full computation on the inputs given so far, by group name. */
  Map<String, GroupStatus> expected(final String cluster) {
    return model.expected(cluster, config.quotaOptions());
  }

  List<TestRecord<PodKey, PodQuotaClass>> podClassRecords() {
    return podClasses.readRecordsToList();
  }

  List<TestRecord<PodKey, EvictionCommand>> evictionRecords() {
    return evictions.readRecordsToList();
  }

  List<TestRecord<byte[], byte[]>> rejectedRecords() {
    return rejected.readRecordsToList();
  }

  @Override
  public void close() {
    driver.close();
  }

  /** Current wall-clock time of the driver. */
  Instant now() {
    return wallClock;
  }

  EngineMetrics metrics() {
    return metrics;
  }

  private <K, V> TestInputTopic<K, V> input(final Topic<K, V> topic) {
    return driver.createInputTopic(
        topic.name(), topic.keySerializer(), topic.valueSerializer(), wallClock, Duration.ZERO);
  }

  private <K, V> TestOutputTopic<K, V> output(final Topic<K, V> topic) {
    return driver.createOutputTopic(
        topic.name(), topic.keyDeserializer(), topic.valueDeserializer());
  }
}

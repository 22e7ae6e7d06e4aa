package io.quotaflow.topics;

import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionResult;
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
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic quotaflow reads or writes, named from one configurable prefix (default {@value
 * #DEFAULT_PREFIX}). Immutable; build one per application from its configuration and pass it on.
 */
public final class TopicCatalogue {
  /** The {@code message.timestamp.type} of the input topics: the broker stamps their records. */
  public static final String LOG_APPEND_TIME = "LogAppendTime";

  /** The prefix used when none is configured. */
  public static final String DEFAULT_PREFIX = "quotaflow.";

  // Kafka allows these characters and at most 249 of them in a topic name.
  private static final Pattern LEGAL_PREFIX = Pattern.compile("[a-zA-Z0-9._-]*");
  private static final int MAX_TOPIC_NAME_LENGTH = 249;

  /**
   * Compacted topics roll a segment every hour so compaction (which skips the active segment) keeps
   * pace with pod churn, keep each record uncompacted for a minute so a reader just behind the head
   * still sees every transition, and keep tombstones 7 days (not the broker's default day), so an
   * engine stopped over a long weekend still reads the deletes; beyond, the connectors' snapshots
   * drop what it missed (docs/reliability.md).
   */
  private static final Map<String, String> COMPACTED =
      Map.of(
          TopicConfig.SEGMENT_MS_CONFIG, millis(Duration.ofHours(1)),
          TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, millis(Duration.ofMinutes(1)),
          TopicConfig.DELETE_RETENTION_MS_CONFIG, millis(Duration.ofDays(7)));

  /**
   * The connectors' input topics are compacted and stamped by the broker: with log-append time a
   * record's timestamp is the broker's clock when it was appended, whatever the producer set, so
   * the engine and the eviction executor judge the inputs' freshness by one clock (issue 40,
   * docs/reliability.md "One clock").
   */
  private static final Map<String, String> INPUT = input();

  private static final Duration EVICTION_RETENTION = Duration.ofDays(7);
  // As long as the history that counts them is kept by default.
  private static final Duration DENIAL_RETENTION = Duration.ofDays(14);
  // Dead letters wait longer: someone has to look at them.
  private static final Duration REJECTED_RETENTION = Duration.ofDays(14);

  private final String prefix;
  private final Topic<PodKey, PodState> pods;
  private final Topic<QuotaKey, QuotaSpec> quotas;
  private final Topic<NodeKey, NodeState> nodes;
  private final Topic<ProfileKey, QuotaProfileSpec> profiles;
  private final Topic<PodGroupKey, PodGroupSpec> podGroups;
  private final Topic<DraKey, DeviceClassState> deviceClasses;
  private final Topic<DraKey, ResourceClaimState> resourceClaims;
  private final Topic<DraKey, ResourceClaimTemplateState> resourceClaimTemplates;
  private final Topic<DraKey, ResourceSliceState> resourceSlices;
  private final Topic<QuotaKey, GroupRuntime> runtime;
  private final Topic<PodKey, PodQuotaClass> podClasses;
  private final Topic<PodKey, EvictionCommand> evictions;
  private final Topic<PodKey, EvictionResult> evictionResults;
  private final Topic<PodKey, PodDenial> denials;
  private final Topic<byte[], byte[]> rejected;

  private TopicCatalogue(final String prefix) {
    this.prefix = prefix;
    this.pods = input("pods.v1", PodKey.class, PodState.class);
    this.quotas = input("quotas.v1", QuotaKey.class, QuotaSpec.class);
    this.nodes = input("nodes.v1", NodeKey.class, NodeState.class);
    this.profiles = input("profiles.v1", ProfileKey.class, QuotaProfileSpec.class);
    this.podGroups = input("podgroups.v1", PodGroupKey.class, PodGroupSpec.class);
    this.deviceClasses = input("deviceclasses.v1", DraKey.class, DeviceClassState.class);
    this.resourceClaims = input("resourceclaims.v1", DraKey.class, ResourceClaimState.class);
    this.resourceClaimTemplates =
        input("resourceclaimtemplates.v1", DraKey.class, ResourceClaimTemplateState.class);
    this.resourceSlices = input("resourceslices.v1", DraKey.class, ResourceSliceState.class);
    this.runtime = compacted("runtime.v1", QuotaKey.class, GroupRuntime.class);
    this.podClasses = compacted("pod-classes.v1", PodKey.class, PodQuotaClass.class);
    this.evictions =
        timeBased(
            "evictions.v1",
            AvroSerde.forKeys(PodKey.class),
            AvroSerde.forValues(EvictionCommand.class),
            EVICTION_RETENTION);
    this.evictionResults =
        timeBased(
            "eviction-results.v1",
            AvroSerde.forKeys(PodKey.class),
            AvroSerde.forValues(EvictionResult.class),
            EVICTION_RETENTION);
    this.denials =
        timeBased(
            "denials.v1",
            AvroSerde.forKeys(PodKey.class),
            AvroSerde.forValues(PodDenial.class),
            DENIAL_RETENTION);
    this.rejected =
        timeBased("rejected.v1", Serdes.ByteArray(), Serdes.ByteArray(), REJECTED_RETENTION);
  }

  /** The catalogue with topic names starting with {@value #DEFAULT_PREFIX}. */
  public static TopicCatalogue withDefaultPrefix() {
    return new TopicCatalogue(DEFAULT_PREFIX);
  }

  /**
   * The catalogue with topic names starting with {@code prefix} (may be empty).
   *
   * @throws IllegalArgumentException when the prefix has characters Kafka forbids in topic names
   */
  public static TopicCatalogue withPrefix(final String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (!LEGAL_PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException(
          "Topic prefix '" + prefix + "' may only contain letters, digits, '.', '_' and '-'");
    }
    if (prefix.length() + "eviction-results.v1".length() > MAX_TOPIC_NAME_LENGTH) {
      throw new IllegalArgumentException("Topic prefix is too long: " + prefix.length() + " chars");
    }
    return new TopicCatalogue(prefix);
  }

  /** The prefix every topic name starts with. */
  public String prefix() {
    return prefix;
  }

  /** Pod states by pod (compacted; a tombstone when the pod is gone). */
  public Topic<PodKey, PodState> pods() {
    return pods;
  }

  /** Quota group specifications by group (compacted; a tombstone when deleted). */
  public Topic<QuotaKey, QuotaSpec> quotas() {
    return quotas;
  }

  /** Node states by node (compacted; a tombstone when the node is gone). */
  public Topic<NodeKey, NodeState> nodes() {
    return nodes;
  }

  /**
   * ElasticQuotaProfiles by profile: one quota tree per node pool (compacted; a tombstone when
   * deleted).
   */
  public Topic<ProfileKey, QuotaProfileSpec> profiles() {
    return profiles;
  }

  /**
   * PodGroups of scheduler-plugins and Volcano by PodGroup: the minMember of their gangs
   * (compacted; a tombstone when deleted).
   */
  public Topic<PodGroupKey, PodGroupSpec> podGroups() {
    return podGroups;
  }

  /**
   * DeviceClasses by name (compacted; a tombstone when deleted): Dynamic Resource Allocation, read
   * only from clusters that serve resource.k8s.io/v1.
   */
  public Topic<DraKey, DeviceClassState> deviceClasses() {
    return deviceClasses;
  }

  /** ResourceClaims by namespace and name (compacted; a tombstone when deleted). */
  public Topic<DraKey, ResourceClaimState> resourceClaims() {
    return resourceClaims;
  }

  /** ResourceClaimTemplates by namespace and name (compacted; a tombstone when deleted). */
  public Topic<DraKey, ResourceClaimTemplateState> resourceClaimTemplates() {
    return resourceClaimTemplates;
  }

  /** ResourceSlices by name (compacted; a tombstone when deleted). */
  public Topic<DraKey, ResourceSliceState> resourceSlices() {
    return resourceSlices;
  }

  /** The four DRA input topics, in a stable order. */
  public List<Topic<DraKey, ?>> draInputs() {
    return List.of(deviceClasses, resourceClaims, resourceClaimTemplates, resourceSlices);
  }

  /** Computed group status by group (compacted; a tombstone when the group is gone). */
  public Topic<QuotaKey, GroupRuntime> runtime() {
    return runtime;
  }

  /** In-quota or over-quota class of each bound pod, on change (compacted). */
  public Topic<PodKey, PodQuotaClass> podClasses() {
    return podClasses;
  }

  /** Eviction commands by victim pod (time-based retention). */
  public Topic<PodKey, EvictionCommand> evictions() {
    return evictions;
  }

  /** Outcomes of eviction commands by pod (time-based retention). */
  public Topic<PodKey, EvictionResult> evictionResults() {
    return evictionResults;
  }

  /**
   * Pods the admission plugin turned away, by pod, on their cluster's partition (time-based
   * retention): the engine counts them in each group's history.
   */
  public Topic<PodKey, PodDenial> denials() {
    return denials;
  }

  /**
   * Dead letters: the original key and value bytes of records that could not be read or processed,
   * with the headers described in {@link RejectedRecordHeaders} (time-based retention).
   */
  public Topic<byte[], byte[]> rejected() {
    return rejected;
  }

  /** Every topic, in a stable order. */
  public List<Topic<?, ?>> all() {
    return List.of(
        pods,
        quotas,
        nodes,
        profiles,
        podGroups,
        deviceClasses,
        resourceClaims,
        resourceClaimTemplates,
        resourceSlices,
        runtime,
        podClasses,
        evictions,
        evictionResults,
        denials,
        rejected);
  }

  /** The topic with this full name, if it is one of ours. */
  public Optional<Topic<?, ?>> byName(final String name) {
    return all().stream().filter(topic -> topic.name().equals(name)).findFirst();
  }

  private <K extends SpecificRecord, V extends SpecificRecord> Topic<K, V> compacted(
      final String suffix, final Class<K> keyType, final Class<V> valueType) {
    return compacted(suffix, keyType, valueType, COMPACTED);
  }

  private <K extends SpecificRecord, V extends SpecificRecord> Topic<K, V> input(
      final String suffix, final Class<K> keyType, final Class<V> valueType) {
    return compacted(suffix, keyType, valueType, INPUT);
  }

  private <K extends SpecificRecord, V extends SpecificRecord> Topic<K, V> compacted(
      final String suffix,
      final Class<K> keyType,
      final Class<V> valueType,
      final Map<String, String> configs) {
    return new Topic<>(
        prefix + suffix,
        AvroSerde.forKeys(keyType),
        AvroSerde.forValues(valueType),
        CleanupPolicy.COMPACT,
        configs);
  }

  private static Map<String, String> input() {
    final Map<String, String> configs = new HashMap<>(COMPACTED);
    configs.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME);
    return Map.copyOf(configs);
  }

  private <K, V> Topic<K, V> timeBased(
      final String suffix,
      final Serde<K> keySerde,
      final Serde<V> valueSerde,
      final Duration retention) {
    return new Topic<>(
        prefix + suffix,
        keySerde,
        valueSerde,
        CleanupPolicy.DELETE,
        Map.of(TopicConfig.RETENTION_MS_CONFIG, millis(retention)));
  }

  private static String millis(final Duration duration) {
    return Long.toString(duration.toMillis());
  }
}

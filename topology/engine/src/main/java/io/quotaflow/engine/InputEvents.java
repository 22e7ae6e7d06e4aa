package io.quotaflow.engine;

import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.topics.SourceMarkers;
import java.util.Map;

/**
 * Checks the content of input records (and eviction results) and wraps them into {@link
 * ClusterEvent}s. A record the engine cannot use raises {@link InvalidInputException} with the
 * reason. Quota specs are not checked beyond their key: a group with negative or inconsistent
 * values is an invalid group, which the core isolates and reports (SPEC 9), not a bad record.
 *
 * <p>Events are made with the record's all-arguments constructor: Avro's builder deep-copies the
 * schema default of every field it is not given, once per input record.
 */
final class InputEvents {
  private InputEvents() {}

  /** Where a record was read: topic, partition, offset ("", -1, -1 when unknown). */
  record Source(String topic, int partition, long offset) {
    static final Source UNKNOWN = new Source("", -1, -1L);
  }

  /** Checks one record of an input topic and makes its event. */
  @FunctionalInterface
  interface Reader<K, V> {
    ClusterEvent read(K key, V value, Source source);
  }

  /** The event of a pod record (a null value is a tombstone). */
  static ClusterEvent pod(final PodKey key, final PodState value, final Source source) {
    if (key == null) {
      throw new InvalidInputException("pod record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("pod namespace", key.getNamespace());
    requireName("pod name", key.getName());
    if (value != null) {
      requireName("pod uid", value.getUid());
      requireNonNegative("request", value.getRequests());
    }
    return event(
        ClusterEventKind.POD, key.getCluster(), key.getNamespace(), key.getName(), value, source);
  }

  /** The event of a quota record (a null value is a tombstone). */
  static ClusterEvent quota(final QuotaKey key, final QuotaSpec value, final Source source) {
    if (key == null) {
      throw new InvalidInputException("quota record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("quota group name", key.getName());
    return event(ClusterEventKind.QUOTA, key.getCluster(), "", key.getName(), value, source);
  }

  /** The event of a node record (a null value is a tombstone). */
  static ClusterEvent node(final NodeKey key, final NodeState value, final Source source) {
    if (key == null) {
      throw new InvalidInputException("node record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("node name", key.getName());
    if (value != null) {
      requireNonNegative("allocatable", value.getAllocatable());
    }
    return event(ClusterEventKind.NODE, key.getCluster(), "", key.getName(), value, source);
  }

  /** The event of an ElasticQuotaProfile record (a null value is a tombstone). */
  static ClusterEvent profile(
      final ProfileKey key, final QuotaProfileSpec value, final Source source) {
    if (key == null) {
      throw new InvalidInputException("profile record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("profile name", key.getName());
    if (value != null) {
      requireName("profile tree id", value.getTreeId());
    }
    // The profile has a field of its own: the value field's union holds the other inputs.
    return new ClusterEvent(
        ClusterEventKind.PROFILE,
        key.getCluster(),
        "",
        key.getName(),
        null,
        null,
        value,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        null,
        null);
  }

  /**
   * The event of a DRA object's record (a null value is a tombstone): a DeviceClass or
   * ResourceSlice (cluster-scoped, no namespace), a ResourceClaim or ResourceClaimTemplate
   * (namespaced).
   */
  static ClusterEvent dra(
      final ClusterEventKind kind, final DraKey key, final Object value, final Source source) {
    if (key == null) {
      throw new InvalidInputException(kind.name().toLowerCase() + " record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("object name", key.getName());
    final boolean namespaced =
        kind == ClusterEventKind.RESOURCE_CLAIM || kind == ClusterEventKind.RESOURCE_CLAIM_TEMPLATE;
    if (namespaced) {
      requireName("namespace", key.getNamespace());
    } else if (!key.getNamespace().isEmpty()) {
      throw new InvalidInputException(
          kind.name().toLowerCase() + " is cluster-scoped but its key has a namespace");
    }
    // A DRA object has a field of its own: the value field's union holds the original inputs.
    return new ClusterEvent(
        kind,
        key.getCluster(),
        key.getNamespace(),
        key.getName(),
        null,
        null,
        null,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        null,
        value);
  }

  /**
   * The event of a PodGroup record (a null value is a tombstone): a PodGroup of scheduler-plugins
   * or Volcano, named by the convention whose API it is. Its event's name is {@link
   * InputId#podGroupName}, so the PodGroups of the two APIs never share a store key.
   */
  static ClusterEvent podGroup(
      final PodGroupKey key, final PodGroupSpec value, final Source source) {
    if (key == null) {
      throw new InvalidInputException("PodGroup record without a key");
    }
    requireName("cluster", key.getCluster());
    if (!GangConventions.SCHEDULER_PLUGINS.equals(key.getConvention())
        && !GangConventions.VOLCANO.equals(key.getConvention())) {
      throw new InvalidInputException(
          "PodGroup of unknown convention \""
              + key.getConvention()
              + "\" (expected "
              + GangConventions.SCHEDULER_PLUGINS
              + " or "
              + GangConventions.VOLCANO
              + ")");
    }
    requireObjectName("PodGroup namespace", key.getNamespace());
    requireObjectName("PodGroup name", key.getName());
    if (value != null && value.getMinMember().isPresent() && value.getMinMember().get() < 1) {
      throw new InvalidInputException(
          "PodGroup minMember " + value.getMinMember().get() + " (at least 1, or none)");
    }
    return new ClusterEvent(
        ClusterEventKind.PODGROUP,
        key.getCluster(),
        key.getNamespace(),
        InputId.podGroupName(key.getConvention(), key.getName()),
        null,
        null,
        null,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        value,
        null);
  }

  /** A record about a pod written by another application: a whole key and a value. */
  private static void requirePodRecord(final String what, final PodKey key, final Object value) {
    if (key == null) {
      throw new InvalidInputException(what + " without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("pod namespace", key.getNamespace());
    requireName("pod name", key.getName());
    if (value == null) {
      throw new InvalidInputException(what + " without a value");
    }
  }

  /**
   * The event of a denial, keyed by the pod turned away. Denials are never deleted, so a record
   * without a value is unusable, as is one without a group or a reason.
   */
  static ClusterEvent denial(final PodKey key, final PodDenial value, final Source source) {
    requirePodRecord("denial", key, value);
    requireName("denial group", value.getGroup());
    requireName("denial reason code", value.getReasonCode());
    return new ClusterEvent(
        ClusterEventKind.DENIAL,
        key.getCluster(),
        key.getNamespace(),
        key.getName(),
        null,
        null,
        null,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        value,
        null,
        null);
  }

  /**
   * The event of an eviction result, keyed by the pod the command targeted. Results are never
   * deleted, so a record without a value is as unusable as one without a command id or pod uid.
   */
  static ClusterEvent evictionResult(
      final PodKey key, final EvictionResult value, final Source source) {
    requirePodRecord("eviction result", key, value);
    requireName("eviction result command id", value.getCommandId());
    requireName("eviction result pod uid", value.getPodUid());
    return new ClusterEvent(
        ClusterEventKind.EVICTION_RESULT,
        key.getCluster(),
        key.getNamespace(),
        key.getName(),
        null,
        value,
        null,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        null,
        null);
  }

  /**
   * The event of a connectors' marker (see {@link SourceMarkers}) read from the input topic of
   * {@code kind}: the event's name is the input kind the marker is about. A marker must name the
   * cluster its key names.
   */
  static ClusterEvent marker(
      final String keyCluster,
      final InputKind kind,
      final SourceMarker marker,
      final Source source) {
    requireName("cluster", keyCluster);
    if (!keyCluster.equals(marker.getCluster())) {
      throw new InvalidInputException(
          "marker of cluster " + marker.getCluster() + " under a key of cluster " + keyCluster);
    }
    return new ClusterEvent(
        ClusterEventKind.MARKER,
        keyCluster,
        "",
        kind.name(),
        null,
        null,
        null,
        marker,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        null,
        null);
  }

  private static ClusterEvent event(
      final ClusterEventKind kind,
      final String cluster,
      final String namespace,
      final String name,
      final Object value,
      final Source source) {
    return new ClusterEvent(
        kind,
        cluster,
        namespace,
        name,
        value,
        null,
        null,
        null,
        source.topic(),
        source.partition(),
        source.offset(),
        null,
        null,
        null);
  }

  private static void requireName(final String what, final String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidInputException("empty " + what);
    }
  }

  /** A Kubernetes object name: not empty, without the slash the PodGroup's id joins with. */
  private static void requireObjectName(final String what, final String value) {
    requireName(what, value);
    if (value.contains("/")) {
      throw new InvalidInputException(what + " \"" + value + "\" holds a slash");
    }
  }

  private static void requireNonNegative(final String what, final Map<String, Long> amounts) {
    amounts.forEach(
        (resource, amount) -> {
          if (amount == null || amount < 0) {
            throw new InvalidInputException("negative " + what + " of " + resource + ": " + amount);
          }
        });
  }
}

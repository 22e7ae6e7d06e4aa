package io.quotaflow.engine;

import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import java.util.Map;

/**
 * Checks the content of input records (and eviction results) and wraps them into {@link
 * ClusterEvent}s. A record the engine cannot use raises {@link InvalidInputException} with the
 * reason. Quota specs are not checked beyond their key: a group with negative or inconsistent
 * values is an invalid group, which the core isolates and reports (SPEC 9), not a bad record.
 */
final class InputEvents {
  private InputEvents() {}

  /** The event of a pod record (a null value is a tombstone). */
  static ClusterEvent.Builder pod(final PodKey key, final PodState value) {
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
    return event(ClusterEventKind.POD, key.getCluster(), key.getNamespace(), key.getName(), value);
  }

  /** The event of a quota record (a null value is a tombstone). */
  static ClusterEvent.Builder quota(final QuotaKey key, final QuotaSpec value) {
    if (key == null) {
      throw new InvalidInputException("quota record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("quota group name", key.getName());
    return event(ClusterEventKind.QUOTA, key.getCluster(), "", key.getName(), value);
  }

  /** The event of a node record (a null value is a tombstone). */
  static ClusterEvent.Builder node(final NodeKey key, final NodeState value) {
    if (key == null) {
      throw new InvalidInputException("node record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("node name", key.getName());
    if (value != null) {
      requireNonNegative("allocatable", value.getAllocatable());
    }
    return event(ClusterEventKind.NODE, key.getCluster(), "", key.getName(), value);
  }

  /** The event of an ElasticQuotaProfile record (a null value is a tombstone). */
  static ClusterEvent.Builder profile(final ProfileKey key, final QuotaProfileSpec value) {
    if (key == null) {
      throw new InvalidInputException("profile record without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("profile name", key.getName());
    if (value != null) {
      requireName("profile tree id", value.getTreeId());
    }
    return event(ClusterEventKind.PROFILE, key.getCluster(), "", key.getName(), null)
        .setProfile(value);
  }

  /**
   * The event of an eviction result, keyed by the pod the command targeted. Results are never
   * deleted, so a record without a value is as unusable as one without a command id or pod uid.
   */
  static ClusterEvent.Builder evictionResult(final PodKey key, final EvictionResult value) {
    if (key == null) {
      throw new InvalidInputException("eviction result without a key");
    }
    requireName("cluster", key.getCluster());
    requireName("pod namespace", key.getNamespace());
    requireName("pod name", key.getName());
    if (value == null) {
      throw new InvalidInputException("eviction result without a value");
    }
    requireName("eviction result command id", value.getCommandId());
    requireName("eviction result pod uid", value.getPodUid());
    return event(
            ClusterEventKind.EVICTION_RESULT,
            key.getCluster(),
            key.getNamespace(),
            key.getName(),
            null)
        .setEvictionResult(value);
  }

  private static ClusterEvent.Builder event(
      final ClusterEventKind kind,
      final String cluster,
      final String namespace,
      final String name,
      final Object value) {
    return ClusterEvent.newBuilder()
        .setKind(kind)
        .setCluster(cluster)
        .setNamespace(namespace)
        .setName(name)
        .setValue(value);
  }

  private static void requireName(final String what, final String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidInputException("empty " + what);
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

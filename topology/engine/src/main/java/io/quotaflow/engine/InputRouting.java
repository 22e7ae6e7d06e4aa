package io.quotaflow.engine;

import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.profile.TreeOp;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which trees an input of a cluster changes, and how: the input's id and value read from its event,
 * the cluster's devices (semantics.md section 22) applied to pods and nodes, and the result routed
 * by the cluster's {@link QuotaTrees}.
 */
final class InputRouting {
  private static final Logger LOG = LoggerFactory.getLogger(InputRouting.class);

  private InputRouting() {}

  /** The input an event is about, or null when the event is no input of the trees. */
  static InputId inputId(final ClusterEvent event) {
    final InputKind kind = kind(event.getKind());
    return kind == null
        ? null
        : new InputId(event.getCluster(), kind, event.getNamespace(), event.getName());
  }

  private static InputKind kind(final ClusterEventKind kind) {
    return switch (kind) {
      case POD -> InputKind.POD;
      case QUOTA -> InputKind.QUOTA;
      case NODE -> InputKind.NODE;
      case PROFILE -> InputKind.PROFILE;
      case PODGROUP -> InputKind.PODGROUP;
      case DEVICE_CLASS -> InputKind.DEVICE_CLASS;
      case RESOURCE_CLAIM -> InputKind.RESOURCE_CLAIM;
      case RESOURCE_CLAIM_TEMPLATE -> InputKind.RESOURCE_CLAIM_TEMPLATE;
      case RESOURCE_SLICE -> InputKind.RESOURCE_SLICE;
      case EVICTION_RESULT, MARKER, DENIAL, UNKNOWN -> null;
    };
  }

  /**
   * The input's value: a profile, a PodGroup or a DRA object travels beside the value field; null
   * for a tombstone.
   */
  static Object value(final ClusterEvent event, final InputId id) {
    return switch (id.kind()) {
      case PROFILE -> event.getProfile().orElse(null);
      case PODGROUP -> event.getPodGroup().orElse(null);
      case DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE, RESOURCE_SLICE ->
          event.getDra().orElse(null);
      case POD, QUOTA, NODE -> event.getValue().orElse(null);
    };
  }

  /** The input as changes of the trees it belongs to. */
  static List<TreeOp> route(
      final QuotaTrees router, final ClusterDevices devices, final InputId id, final Object value) {
    return switch (id.kind()) {
      case POD -> {
        final PodRef ref = new PodRef(id.namespace(), id.name());
        if (value == null) {
          devices.removePod(ref);
          yield router.removePod(ref);
        }
        yield router.putPod(devices.pod(id.namespace(), id.name(), (PodState) value));
      }
      case QUOTA -> value == null ? router.removeGroup(id.name()) : putGroup(router, id, value);
      case NODE -> {
        if (value == null) {
          devices.removeNode(id.name());
          yield router.removeNode(id.name());
        }
        yield router.putNode(devices.node(id.name(), (NodeState) value));
      }
      case PROFILE ->
          value == null
              ? router.removeProfile(id.name())
              : router.putProfile(InputRecords.profile(id.name(), (QuotaProfileSpec) value));
      case PODGROUP -> List.of();
      case DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE, RESOURCE_SLICE -> List.of();
    };
  }

  private static List<TreeOp> putGroup(
      final QuotaTrees router, final InputId id, final Object value) {
    final QuotaGroup group = InputRecords.group(id.name(), (QuotaSpec) value);
    router
        .options()
        .specialQuotaNamespaces()
        .refusal(group.name(), group.namespace())
        .ifPresent(why -> LOG.warn("cluster {}: {} (quota.special.namespaces)", id.cluster(), why));
    if (!group.ignoredNamesakes().isEmpty()) {
      // Sent only when the group's record changes: once per change, not per event.
      LOG.warn(
          "cluster {}: ElasticQuota {} also exists in namespaces {}; those are ignored (quota names"
              + " are cluster-wide and the first created, in namespace {}, stands for the name)",
          id.cluster(),
          id.name(),
          group.ignoredNamesakes(),
          group.namespace());
    }
    return router.putGroup(group);
  }
}

package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.quotaflow.kube.GangConventions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies of pods and nodes with only the fields their records are read from ({@code PodAdapter},
 * {@code GangConventions}, {@code DraRecords}, {@code NodeAdapter}), plus what the informer itself
 * needs (name, namespace, uid, resourceVersion). Shared sub-objects (resource maps, labels) are not
 * copied: the rest of the full object becomes garbage. A field a reader starts to use must be kept
 * here too: {@code TrimmedObjectsTest} maps full and trimmed objects and compares the records.
 */
final class TrimmedObjects {

  /** The only annotations a pod's record reads: the gang conventions'. */
  private static final List<String> POD_ANNOTATIONS =
      List.of(
          GangConventions.KOORDINATOR_NAME,
          GangConventions.KOORDINATOR_MIN_AVAILABLE,
          GangConventions.VOLCANO_GROUP_NAME);

  private static final String READY = "Ready";

  private TrimmedObjects() {}

  /** A pod with what {@code pods.v1} records are made of. */
  static Pod pod(final Pod full) {
    final PodBuilder trimmed = new PodBuilder().withApiVersion(full.getApiVersion());
    trimmed.withKind(full.getKind()).withMetadata(meta(full.getMetadata(), POD_ANNOTATIONS));
    final PodSpec spec = full.getSpec();
    if (spec != null) {
      trimmed.withSpec(
          new PodSpecBuilder()
              .withNodeName(spec.getNodeName())
              .withPriority(spec.getPriority())
              .withContainers(containers(spec.getContainers()))
              .withInitContainers(containers(spec.getInitContainers()))
              .withResources(spec.getResources())
              .withOverhead(spec.getOverhead())
              .withResourceClaims(spec.getResourceClaims())
              .build());
    }
    final PodStatus status = full.getStatus();
    if (status != null) {
      trimmed.withStatus(
          new PodStatusBuilder()
              .withPhase(status.getPhase())
              .withStartTime(status.getStartTime())
              .withResourceClaimStatuses(status.getResourceClaimStatuses())
              .build());
    }
    return trimmed.build();
  }

  /** A node with what {@code nodes.v1} records are made of: its Ready conditions only. */
  static Node node(final Node full) {
    final NodeBuilder trimmed = new NodeBuilder().withApiVersion(full.getApiVersion());
    trimmed.withKind(full.getKind()).withMetadata(meta(full.getMetadata(), List.of()));
    final NodeSpec spec = full.getSpec();
    if (spec != null) {
      trimmed.withNewSpec().withUnschedulable(spec.getUnschedulable()).endSpec();
    }
    final NodeStatus status = full.getStatus();
    if (status != null) {
      trimmed
          .withNewStatus()
          .withAllocatable(status.getAllocatable())
          .withConditions(readyConditions(status.getConditions()))
          .endStatus();
    }
    return trimmed.build();
  }

  private static ObjectMeta meta(final ObjectMeta full, final List<String> annotations) {
    if (full == null) {
      return null;
    }
    final ObjectMetaBuilder meta =
        new ObjectMetaBuilder()
            .withName(full.getName())
            .withNamespace(full.getNamespace())
            .withUid(full.getUid())
            .withResourceVersion(full.getResourceVersion())
            .withCreationTimestamp(full.getCreationTimestamp())
            .withDeletionTimestamp(full.getDeletionTimestamp())
            .withLabels(full.getLabels());
    if (full.getAnnotations() != null) {
      final Map<String, String> kept = new LinkedHashMap<>();
      for (final String name : annotations) {
        final String value = full.getAnnotations().get(name);
        if (value != null) {
          kept.put(name, value);
        }
      }
      meta.withAnnotations(kept.isEmpty() ? null : kept);
    }
    return meta.build();
  }

  /** Containers with their resources and restart policy (a sidecar's) only; null stays null. */
  private static List<Container> containers(final List<Container> full) {
    if (full == null) {
      return null;
    }
    return full.stream()
        .map(
            container ->
                new ContainerBuilder()
                    .withName(container.getName())
                    .withResources(container.getResources())
                    .withRestartPolicy(container.getRestartPolicy())
                    .build())
        .toList();
  }

  private static List<NodeCondition> readyConditions(final List<NodeCondition> full) {
    if (full == null) {
      return null;
    }
    return full.stream()
        .filter(condition -> READY.equals(condition.getType()))
        .map(
            condition ->
                new NodeConditionBuilder()
                    .withType(condition.getType())
                    .withStatus(condition.getStatus())
                    .build())
        .toList();
  }
}

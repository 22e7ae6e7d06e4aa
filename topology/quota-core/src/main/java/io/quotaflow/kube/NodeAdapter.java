package io.quotaflow.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a Kubernetes {@link Node} as a {@link QuotaNode}: {@code status.allocatable}, the Ready
 * condition, {@code spec.unschedulable}, {@code metadata.deletionTimestamp} and the labels (for
 * ElasticQuotaProfile node selectors). Pure: no I/O. An allocatable quantity that cannot be read
 * becomes a {@link SpecProblem} and its dimension is left out.
 */
public final class NodeAdapter {

  private NodeAdapter() {}

  public static QuotaNode toQuotaNode(Node node) {
    final List<SpecProblem> problems = new ArrayList<>();
    final ObjectMeta meta = node.getMetadata() == null ? new ObjectMeta() : node.getMetadata();
    final NodeSpec spec = node.getSpec() == null ? new NodeSpec() : node.getSpec();
    final NodeStatus status = node.getStatus() == null ? new NodeStatus() : node.getStatus();

    final String name = meta.getName() == null ? "" : meta.getName();
    if (name.isEmpty()) {
      problems.add(new SpecProblem("metadata.name", "a node needs a name"));
    }
    final ResourceReading allocatable =
        ResourceReading.read(status.getAllocatable(), "status.allocatable", problems);
    final boolean ready =
        status.getConditions() != null
            && status.getConditions().stream().anyMatch(NodeAdapter::isReadyTrue);
    final boolean schedulable = !Boolean.TRUE.equals(spec.getUnschedulable());
    final boolean deleting =
        meta.getDeletionTimestamp() != null && !meta.getDeletionTimestamp().isEmpty();
    final Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    return new QuotaNode(
        name, allocatable.values(), ready, schedulable, deleting, problems, labels);
  }

  private static boolean isReadyTrue(NodeCondition condition) {
    return "Ready".equals(condition.getType()) && "True".equals(condition.getStatus());
  }
}

package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** Nodes, to {@code nodes.v1}. */
final class NodeKind implements SourceKind<Node, NodeKey, NodeState> {

  private final Topic<NodeKey, NodeState> topic;

  NodeKind(final Topic<NodeKey, NodeState> topic) {
    this.topic = Objects.requireNonNull(topic, "topic");
  }

  @Override
  public String name() {
    return "nodes";
  }

  @Override
  public Topic<NodeKey, NodeState> topic() {
    return topic;
  }

  @Override
  public SharedIndexInformer<Node> informer(final KubernetesClient client, final Duration resync) {
    final SharedIndexInformer<Node> nodes =
        client.nodes().withLimit(ListPaging.PAGE_SIZE).runnableInformer(resync.toMillis());
    return nodes.itemStore(new TrimmingStore<>(TrimmedObjects::node));
  }

  @Override
  public SourceRecord<NodeKey, NodeState> map(final String cluster, final Node object) {
    final QuotaNode node = NodeAdapter.toQuotaNode(object);
    return new SourceRecord<>(
        RecordMapping.nodeKey(cluster, node), RecordMapping.nodeState(node), node.problems());
  }

  @Override
  public Optional<Node> current(final SharedIndexInformer<Node> informer, final NodeKey key) {
    // Nodes are cluster-scoped: the store key is the bare name.
    return Optional.ofNullable(informer.getStore().getByKey(key.getName()));
  }

  @Override
  public NodeKey markerKey(final String cluster) {
    return SourceMarkers.nodeKey(cluster);
  }

  @Override
  public String clusterOf(final NodeKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final NodeKey key) {
    return "node " + key.getName();
  }
}

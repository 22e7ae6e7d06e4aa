package io.quotaflow.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.cluster.ElasticQuotaProfiles;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.ElasticQuotaProfileAdapter;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the scenario ITs compare (their set-up is {@link LocalRunExtension}): the demo cluster's
 * objects and the engine's runtimes in the form {@code simulate}'s calculators compare with.
 */
final class PlayedScenarios {

  static final Path LOCAL = LocalFiles.localDir();

  private PlayedScenarios() {}

  /** The demo cluster's ElasticQuotas, pods and nodes now, as simulate reads them. */
  static ClusterInputs inputs(final LocalRun run) {
    final KubernetesClient client = client(run);
    return new ClusterInputs(
        client
            .genericKubernetesResources(ElasticQuotas.CONTEXT)
            .inAnyNamespace()
            .list()
            .getItems()
            .stream()
            .map(ElasticQuotaAdapter::toQuotaGroup)
            .toList(),
        client.pods().inAnyNamespace().list().getItems().stream()
            .map(PodAdapter::toQuotaPod)
            .toList(),
        client.nodes().list().getItems().stream().map(NodeAdapter::toQuotaNode).toList());
  }

  /** The demo cluster's ElasticQuotaProfiles now, as simulate reads them. */
  static List<QuotaProfile> profiles(final LocalRun run) {
    return client(run)
        .genericKubernetesResources(ElasticQuotaProfiles.CONTEXT)
        .inAnyNamespace()
        .list()
        .getItems()
        .stream()
        .map(ElasticQuotaProfileAdapter::toQuotaProfile)
        .toList();
  }

  /** Every group's runtime as the engine holds it for the demo cluster, by group. */
  static Map<String, Map<String, Long>> engineRuntimes(final LocalRun run) {
    return runtimes(RuntimeQueries.of(run.engine().streams()).tree(DemoCluster.NAME));
  }

  /** Each group's runtime, by group. */
  static Map<String, Map<String, Long>> runtimes(final Collection<GroupStatus> groups) {
    return groups.stream()
        .collect(Collectors.toMap(GroupStatus::name, group -> group.runtime().asMap()));
  }

  static KubernetesClient client(final LocalRun run) {
    return run.demo().orElseThrow().client();
  }
}

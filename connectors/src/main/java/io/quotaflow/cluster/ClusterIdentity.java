package io.quotaflow.cluster;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes cluster's identity: the UID of its {@code kube-system} namespace, which every
 * cluster has from its creation to its end and no two clusters share (Kubernetes has no cluster UID
 * of its own; this is the one tools such as Velero and Istio use). The connectors put it on every
 * record they write, so the engine tells two clusters configured under one name apart (issue
 * 40.12).
 */
public final class ClusterIdentity {
  /** The namespace whose UID identifies the cluster. */
  public static final String NAMESPACE = "kube-system";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterIdentity.class);

  private ClusterIdentity() {}

  /**
   * The UID of {@code cluster}'s kube-system namespace; empty when the connectors may not read it
   * (403: a ClusterRole of an older release, without {@code get} on that namespace) or it has none
   * (404: not a real API server), logged, so their records then carry no identity and the engine
   * judges only their epoch.
   *
   * @throws KubernetesClientException when the API server does not answer (the caller tries again)
   */
  public static Optional<String> kubeSystemUid(final KubeCluster cluster) {
    final KubernetesClient client = cluster.client();
    final Namespace namespace;
    try {
      namespace = client.namespaces().withName(NAMESPACE).get();
    } catch (final KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        LOG.warn(
            "cluster {}: may not read namespace {} ({}): its records carry no cluster identity,"
                + " so a second cluster configured under its name is not detected (grant get on"
                + " namespaces/{}, see deploy/kubernetes)",
            cluster.name(),
            NAMESPACE,
            e.getMessage(),
            NAMESPACE);
        return Optional.empty();
      }
      throw e;
    }
    final Optional<String> uid =
        Optional.ofNullable(namespace)
            .map(Namespace::getMetadata)
            .map(metadata -> metadata.getUid())
            .filter(value -> !value.isBlank());
    if (uid.isEmpty()) {
      LOG.warn(
          "cluster {}: namespace {} not found or without a UID: its records carry no cluster"
              + " identity",
          cluster.name(),
          NAMESPACE);
    } else {
      LOG.info(
          "cluster {}: identity (UID of namespace {}) {}", cluster.name(), NAMESPACE, uid.get());
    }
    return uid;
  }
}

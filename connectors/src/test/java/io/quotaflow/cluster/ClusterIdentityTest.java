package io.quotaflow.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quotaflow.fixtures.MockCluster;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A cluster's identity is the UID of its kube-system namespace, as its API server answers it. */
class ClusterIdentityTest {
  private static final String PATH = "/api/v1/namespaces/kube-system";

  @AutoClose private final MockCluster mock = MockCluster.start("east");

  @Test
  void theIdentityIsTheUidOfKubeSystem() {
    assertThat(ClusterIdentity.kubeSystemUid(mock.cluster())).contains(mock.kubeSystemUid());
  }

  @Test
  void twoClustersHaveTwoIdentities() {
    try (MockCluster other = MockCluster.start("east")) {
      assertThat(ClusterIdentity.kubeSystemUid(other.cluster()))
          .isNotEqualTo(ClusterIdentity.kubeSystemUid(mock.cluster()));
    }
  }

  @Test
  void aClusterThatMayNotBeAskedHasNoIdentityRatherThanNoSource() {
    mock.server()
        .expect()
        .get()
        .withPath(PATH)
        .andReturn(
            403,
            new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage("namespaces \"kube-system\" is forbidden")
                .build())
        .always();

    assertThat(ClusterIdentity.kubeSystemUid(mock.cluster())).isEmpty();
  }

  @Test
  void anApiServerThatFailsIsAskedAgainByTheCaller() {
    mock.server()
        .expect()
        .get()
        .withPath(PATH)
        .andReturn(503, new StatusBuilder().withCode(503).withMessage("unavailable").build())
        .always();

    // A client that does not retry by itself: the failure reaches the caller at once.
    try (KubernetesClient impatient =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(mock.client().getConfiguration())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build()) {
      assertThatThrownBy(() -> ClusterIdentity.kubeSystemUid(new KubeCluster("east", impatient)))
          .isInstanceOf(KubernetesClientException.class);
    }
  }
}

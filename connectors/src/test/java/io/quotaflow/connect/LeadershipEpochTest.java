package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.quotaflow.fixtures.MockCluster;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A leader's writer epoch is the Lease's leaseTransitions, which the API server keeps and each new
 * holder raises: the term of an earlier leader has a lower one (issue 40.12).
 */
class LeadershipEpochTest {
  @AutoClose private final MockCluster mock = MockCluster.start("east");

  private void lease(final String holder, final int transitions) {
    mock.client()
        .leases()
        .inNamespace("quotaflow")
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName("quotaflow-connectors")
                .withNamespace("quotaflow")
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(holder)
                .withLeaseTransitions(transitions)
                .endSpec()
                .build())
        .createOr(existing -> existing.update());
  }

  private long epoch(final String identity) {
    return Leadership.epochOf(mock.client(), "quotaflow", "quotaflow-connectors", identity);
  }

  @Test
  void theEpochIsTheLeasesTransitionsAndRisesWithEachNewHolder() {
    lease("connectors-0", 3);
    final long first = epoch("connectors-0");
    lease("connectors-1", 4);
    final long second = epoch("connectors-1");

    assertThat(first).isEqualTo(3);
    assertThat(second).isGreaterThan(first);
  }

  @Test
  void withoutALeaseTheEpochIsZero() {
    assertThat(epoch("connectors-0")).isZero();
  }
}

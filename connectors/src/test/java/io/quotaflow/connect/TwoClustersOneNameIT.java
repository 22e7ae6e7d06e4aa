package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.errors.ClusterQuarantine;
import io.quotaflow.fixtures.BorrowingOrganisation;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.Pipeline;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.source.KubeSource;
import io.quotaflow.source.SourceSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split brain on the real broker (issue 40.12, docs/reliability.md): a second connectors deployment
 * configured with the name of a cluster that is already watched, but connected to another cluster
 * (another kube-system UID), writes into the same topics. Its first list finds none of the first
 * cluster's objects and tombstones them all; the engine must see two clusters under one name and
 * quarantine it rather than apply the second's records to the first's state.
 */
class TwoClustersOneNameIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("twins");

  @TempDir Path stateDir;

  @Test
  void aSecondClusterUnderTheSameNameIsQuarantinedNotMixedIn() throws Exception {
    BorrowingOrganisation.create(rig.mock(), rig.namespace());

    try (Pipeline loop = Pipeline.on(rig, stateDir).start();
        TopicReader<QuotaKey, GroupRuntime> runtimes = rig.reader(rig.topics().runtime());
        MockCluster twin = MockCluster.start(rig.mock().name())) {
      await()
          .atMost(WAIT)
          .until(() -> !runtimes.read(key -> key.getName().equals("team-a")).isEmpty());
      assertThat(quarantined()).isZero();
      assertThat(twin.kubeSystemUid()).isNotEqualTo(rig.mock().kubeSystemUid());

      try (KubeSource second =
          new KubeSource(
              List.of(twin.cluster()),
              rig.topics(),
              rig.kafka(),
              SourceSettings.defaults(),
              new SimpleMeterRegistry())) {
        second.start().get();

        await().atMost(WAIT).until(() -> quarantined() == 1.0);
      }
      // The first cluster's groups were not deleted by the second's tombstones.
      assertThat(
              runtimes.read(key -> key.getName().equals("team-a")).stream()
                  .reduce((first, later) -> later)
                  .orElseThrow()
                  .value())
          .as("team-a's latest runtime record is not a tombstone")
          .isPresent();
    }
  }

  private static double quarantined() {
    final Gauge gauge = rig.registry().find(ClusterQuarantine.QUARANTINED).gauge();
    return gauge == null ? 0 : gauge.value();
  }
}

package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.fixtures.BorrowingOrganisation;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.Pipeline;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.status.QuotaStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop on one mock cluster: its objects go through the source to the broker, the engine
 * computes runtimes and eviction commands, the status writer shows the runtimes on the
 * ElasticQuotas and the eviction executor evicts the pod that reclaim picked.
 */
@Tag("smoke")
class ClusterRoundTripIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("loop");

  @TempDir Path stateDir;

  @Test
  void runtimesReachTheElasticQuotasAndAnOverUsedGroupLosesItsLeastImportantPod() throws Exception {
    // A 10-cpu cluster; team-a is guaranteed 2 cpu, team-b 8, both may grow to 10. team-a
    // borrows team-b's idle guarantee: 6 cpu in use.
    final BorrowingOrganisation organisation =
        BorrowingOrganisation.create(rig.mock(), rig.namespace());
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "a-2").accepts();

    try (Pipeline loop = Pipeline.on(rig, stateDir).withStatusWriter().start();
        TopicReader<QuotaKey, GroupRuntime> runtimes = rig.reader(rig.topics().runtime());
        TopicReader<PodKey, EvictionResult> results = rig.reader(rig.topics().evictionResults())) {
      // team-a's runtime: its whole request, lent by the idle team-b.
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(annotation("team-a"))
                      .isEqualTo("{\"cpu\":\"6\"}")
                      .isEqualTo(runtimeAnnotationOf(runtimes, "team-a")));

      // team-b wants its guarantee back: team-a's runtime falls to 2, below its 6 in use.
      organisation.teamBClaimsItsGuarantee();

      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(annotation("team-a")).isEqualTo("{\"cpu\":\"2\"}"));
      final EvictionResult result =
          await()
              .atMost(WAIT)
              .until(
                  () ->
                      results.read().stream().flatMap(entry -> entry.value().stream()).findFirst(),
                  Optional::isPresent)
              .orElseThrow();
      assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
      assertThat(eviction.requests()).hasSize(1);
      await().atMost(WAIT).until(() -> !organisation.hasPod("a-2"));
      assertThat(organisation.pod("a-1")).as("the more important pod stays").isNotNull();
      assertThat(results.read()).hasSize(1);
    }
  }

  private static String annotation(final String group) {
    final Map<String, String> annotations =
        rig.mock()
            .quotas()
            .inNamespace(rig.namespace())
            .withName(group)
            .get()
            .getMetadata()
            .getAnnotations();
    return annotations == null ? null : annotations.get(QuotaStatus.RUNTIME_ANNOTATION);
  }

  /** The runtime annotation as the engine's latest record for the group says it should read. */
  private static String runtimeAnnotationOf(
      final TopicReader<QuotaKey, GroupRuntime> runtimes, final String group) {
    final GroupRuntime latest =
        runtimes.read(key -> key.getName().equals(group)).stream()
            .reduce((first, second) -> second)
            .flatMap(entry -> entry.value())
            .orElseThrow();
    return QuotaStatus.of(latest).runtime();
  }
}

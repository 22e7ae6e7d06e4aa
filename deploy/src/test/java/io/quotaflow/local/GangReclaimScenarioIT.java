package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quotaflow local --scenario gang-reclaim} in this JVM (issue 28): team-a's 8-pod training
 * gang borrows GPUs, team-b takes its guarantee back and quotaflow evicts the whole gang, not the
 * four workers the GPUs alone would ask for; a new gang that cannot fit whole is turned away at its
 * first pod. After every step each group's runtime equals what simulate's calculator computes from
 * the demo cluster's objects at that moment, and the query API shows team-a's gang running whole
 * until it is evicted, then no gang.
 */
@Tag("system")
class GangReclaimScenarioIT {

  @RegisterExtension final LocalRunExtension local = LocalRunExtension.scenario("gang-reclaim");

  @Test
  void theWholeGangIsEvictedAndAGangThatCannotFitIsTurnedAwayAtItsFirstPod() {
    final LocalRun run = local.run();
    final List<ScenarioPlayer.StepOutcome> outcomes =
        local.play(
            number -> {
              assertThat(PlayedScenarios.engineRuntimes(run))
                  .as("engine runtimes after step %d", number)
                  .isEqualTo(calculatorRuntimes(run));
              assertThat(gangs(run, "team-a"))
                  .as("team-a's gangs in the query API after step %d", number)
                  .isEqualTo(
                      number <= 2
                          ? "[{\"namespace\":\"team-a\",\"name\":\"train\","
                              + "\"convention\":\"koordinator\",\"minMember\":8,"
                              + "\"members\":8,\"running\":8,\"pending\":0,"
                              + "\"terminating\":0,\"state\":\"running\",\"held\":null}]"
                          : "none");
            });

    final KubernetesClient client = run.demo().orElseThrow().client();
    assertThat(client.pods().inNamespace("team-a").withName("retry-1").get())
        .as("the first pod of a gang that cannot fit is never created")
        .isNull();
    for (int i = 1; i <= 8; i++) {
      assertThat(client.pods().inNamespace("team-a").withName("train-" + i).get())
          .as("train-%d goes with its gang", i)
          .isNull();
    }

    assertThat(local.checkedSteps()).containsExactly(1, 2, 3, 4, 5);
    assertThat(outcomes.get(1).evicted()).isEmpty();
    final List<PodRef> gang = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      gang.add(new PodRef("team-a", "train-" + i));
    }
    assertThat(outcomes.get(2).evicted()).containsExactlyInAnyOrderElementsOf(gang);
    assertThat(outcomes.get(2).runtime()).containsEntry("team-a", Map.of("nvidia.com/gpu", "4"));
    assertThat(outcomes.get(4).admission()).contains(Scenario.AdmissionAnswer.DENIED);
    assertThat(outcomes.get(4).admissionMessage().orElseThrow()).contains("retry", "team-a");
  }

  /**
   * The {@code gangs} of {@code group} as the query API answers them, or {@code none} without the
   * field.
   */
  private static String gangs(final LocalRun run, final String group) {
    final HttpResponse<String> response;
    final JsonNode quota;
    try {
      response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              run.adminUrl().orElseThrow()
                                  + "/api/v1/clusters/demo/quotas/"
                                  + group))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      quota = new ObjectMapper().readTree(response.body()).path("quota");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return quota.has("gangs") ? quota.get("gangs").toString() : "none";
  }

  /** Every group's runtime as simulate's calculator computes it from the cluster's objects now. */
  private static Map<String, Map<String, Long>> calculatorRuntimes(final LocalRun run) {
    final TreeSnapshot snapshot =
        QuotaCalculator.compute(PlayedScenarios.inputs(run), run.engineConfig().quotaOptions());
    return PlayedScenarios.runtimes(snapshot.groups());
  }
}

package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.StatusWriters;
import io.quotaflow.schemas.GroupRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OverUseEventsIT {

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("overuse");

  @Test
  void aGroupThatBecomesOverUsedGetsAWarningWithTheNumbersAndANormalEventWhenItIsBack() {
    rig.mock()
        .quotas()
        .resource(quota(rig.namespace(), rig.group()).min("cpu", "10").build())
        .create();
    start(EventSettings.defaults());

    send(runtime(10_000L, 12_000L));

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(events())
                    .singleElement()
                    .satisfies(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getReason()).isEqualTo("OverUsed");
                          assertThat(event.getRegarding().getKind()).isEqualTo("ElasticQuota");
                          assertThat(event.getRegarding().getName()).isEqualTo(rig.group());
                          assertThat(event.getNote())
                              .isEqualTo(
                                  "group "
                                      + rig.group()
                                      + " uses more than its runtime in cpu (used 12, runtime"
                                      + " 10)");
                          assertThat(event.getReportingController())
                              .isEqualTo(StatusWriter.CONTROLLER);
                        }));

    send(runtime(10_000L, 11_000L));
    send(runtime(10_000L, 9_000L));

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(events())
                    .extracting(Event::getType, Event::getReason)
                    .as("still over-used tells nothing; back within tells once")
                    .containsExactlyInAnyOrder(
                        tuple("Warning", "OverUsed"), tuple("Normal", "NoLongerOverUsed")));
  }

  @Test
  void withEventsOffNothingIsEmitted() {
    rig.mock()
        .quotas()
        .resource(quota(rig.namespace(), rig.group()).min("cpu", "10").build())
        .create();
    start(EventSettings.off());

    send(runtime(10_000L, 12_000L));

    await()
        .atMost(ConnectorRig.WAIT)
        .until(
            () -> rig.mock().quotas().inNamespace(rig.namespace()).withName(rig.group()).get(),
            q -> hasUsed(q));
    assertThat(events()).isEmpty();
  }

  private static boolean hasUsed(final GenericKubernetesResource q) {
    return q.getAdditionalProperties().get("status") != null;
  }

  private void start(final EventSettings events) {
    rig.closeAfterTest(
            StatusWriters.writer(
                rig,
                StatusWriters.settings(Duration.ofMillis(300), StatusMode.KOORDINATOR),
                events))
        .start();
  }

  /** A leaf group tracking cpu, with the given runtime and used (milli-cores). */
  private static GroupRuntime runtime(final long runtime, final long used) {
    return GroupRuntime.newBuilder()
        .setMin(Map.of("cpu", 10_000L))
        .setRequest(Map.of("cpu", used))
        .setRuntime(Map.of("cpu", runtime))
        .setUsed(Map.of("cpu", used))
        .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
        .build();
  }

  private void send(final GroupRuntime value) {
    rig.send(rig.topics().runtime(), Keys.quota(rig.group()), value);
  }

  private List<Event> events() {
    return rig.mock().events(rig.namespace());
  }
}

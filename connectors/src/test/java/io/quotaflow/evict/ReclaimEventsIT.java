package io.quotaflow.evict;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.RecordingSleeper;
import io.quotaflow.schemas.EvictionCommand;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ReclaimEventsIT {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("reclaim");

  private MockCluster mock;
  private String namespace;
  private String group;

  @BeforeEach
  void aQuotaGroup() {
    mock = rig.mock();
    namespace = rig.namespace();
    group = rig.group();
    mock.quotas().resource(quota(namespace, group).build()).create();
  }

  @Test
  void theFirstCommandOfAGroupStartsReclaimOnItsQuotaAndEachPodIsToldWhyBeforeItIsEvicted() {
    final Pod first = createPod("batch-1");
    final Pod second = createPod("batch-2");
    EvictionEndpoint.of(mock, namespace, "batch-1").accepts();
    EvictionEndpoint.of(mock, namespace, "batch-2").accepts();
    start(false);

    send("batch-1", first, "reclaimed-after-delay");
    send("batch-2", second, "reclaimed-after-delay");

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              assertThat(eventsOf("ElasticQuota"))
                  .as("one reclaim start for two commands")
                  .singleElement()
                  .satisfies(
                      event -> {
                        assertThat(event.getType()).isEqualTo("Normal");
                        assertThat(event.getReason()).isEqualTo("ReclaimStarted");
                        assertThat(event.getRegarding().getName()).isEqualTo(group);
                        assertThat(event.getNote()).contains(group).contains("over in cpu");
                        assertThat(event.getReportingController())
                            .isEqualTo(EvictionExecutor.CONTROLLER);
                      });
              assertThat(eventsOf("Pod"))
                  .hasSize(2)
                  .allSatisfy(
                      event -> {
                        assertThat(event.getType()).isEqualTo("Warning");
                        assertThat(event.getReason()).isEqualTo("reclaimed-after-delay");
                        assertThat(event.getAction()).isEqualTo("Evict");
                        assertThat(event.getNote())
                            .isEqualTo(
                                "quotaflow evicts the pod to reclaim quota for group "
                                    + group
                                    + ": "
                                    + group
                                    + " uses more cpu than its runtime");
                      });
              assertThat(eventsOf("Pod"))
                  .extracting(event -> event.getRegarding().getUid())
                  .containsExactlyInAnyOrder(
                      first.getMetadata().getUid(), second.getMetadata().getUid());
            });
  }

  @Test
  void aDryRunEmitsNormalEventsThatSayItIsADryRun() {
    final Pod victim = createPod("web-1");
    start(true);

    send("web-1", victim, "reclaimed-after-delay");

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              assertThat(eventsOf("ElasticQuota"))
                  .singleElement()
                  .satisfies(
                      event -> {
                        assertThat(event.getType()).isEqualTo("Normal");
                        assertThat(event.getReason()).isEqualTo("ReclaimDryRun");
                        assertThat(event.getNote()).startsWith("dry run:");
                      });
              assertThat(eventsOf("Pod"))
                  .singleElement()
                  .satisfies(
                      event -> {
                        assertThat(event.getType()).isEqualTo("Normal");
                        assertThat(event.getReason()).isEqualTo("reclaimed-after-delay");
                        assertThat(event.getNote()).startsWith("dry run:");
                      });
            });
    assertThat(mock.client().pods().inNamespace(namespace).withName("web-1").get()).isNotNull();
  }

  @Test
  void aPodOnAReservedNodeIsToldItsReasonCodeAndItsGroupStartsNoReclaim() {
    final Pod intruder = createPod("web-2");
    EvictionEndpoint.of(mock, namespace, "web-2").accepts();
    start(false);

    send("web-2", intruder, "node-reserved", List.of());

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(eventsOf("Pod"))
                    .singleElement()
                    .satisfies(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getReason()).isEqualTo("node-reserved");
                          assertThat(event.getNote())
                              .startsWith("quotaflow evicts the pod of group " + group + ": ");
                        }));
    // The quota's Event would have come first: the group's use is not why the pod goes.
    assertThat(eventsOf("ElasticQuota")).isEmpty();
  }

  @Test
  void aCommandWithoutACodeFromAnOlderEngineIsToldAsReclaimWhenItsGroupWasOverUsed() {
    final Pod victim = createPod("batch-3");
    EvictionEndpoint.of(mock, namespace, "batch-3").accepts();
    start(false);

    send("batch-3", victim, "");

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              assertThat(eventsOf("Pod"))
                  .singleElement()
                  .satisfies(
                      event -> assertThat(event.getReason()).isEqualTo("reclaimed-after-delay"));
              assertThat(eventsOf("ElasticQuota"))
                  .singleElement()
                  .satisfies(event -> assertThat(event.getReason()).isEqualTo("ReclaimStarted"));
            });
  }

  @Test
  void aPodWhoseDisruptionBudgetRefusesIsToldItIsBlockedByTheBudget() {
    final Pod victim = createPod("db-0");
    EvictionEndpoint.of(mock, namespace, "db-0").refuses(3);
    start(false);

    send("db-0", victim, "reclaimed-after-delay");

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(eventsOf("Pod"))
                    .extracting(Event::getType, Event::getReason)
                    .containsExactlyInAnyOrder(
                        tuple("Warning", "reclaimed-after-delay"),
                        tuple("Warning", "blocked-by-budget")));
    assertThat(eventsOf("Pod"))
        .filteredOn(event -> event.getReason().equals("blocked-by-budget"))
        .singleElement()
        .satisfies(
            event ->
                assertThat(event.getNote())
                    .contains(
                        "reclaimed-after-delay",
                        group,
                        "429",
                        "Cannot evict pod as it would violate the pod's disruption budget."));
    assertThat(mock.client().pods().inNamespace(namespace).withName("db-0").get()).isNotNull();
  }

  private void start(final boolean dryRun) {
    rig.closeAfterTest(
            new EvictionExecutor(
                List.of(mock.cluster()),
                rig.topics(),
                rig.kafka(),
                new EvictionSettings(
                    dryRun,
                    3,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(30),
                    100,
                    100,
                    "evict-" + UUID.randomUUID(),
                    Duration.ofMinutes(10)),
                EventSettings.defaults(),
                Clock.fixed(NOW, ZoneOffset.UTC),
                new RecordingSleeper(),
                rig.registry()))
        .start();
  }

  private void send(final String name, final Pod pod, final String reasonCode) {
    send(name, pod, reasonCode, List.of("cpu"));
  }

  private void send(
      final String name,
      final Pod pod,
      final String reasonCode,
      final List<String> dimensionsOver) {
    final String uid = pod.getMetadata().getUid();
    rig.send(
        rig.topics().evictions(),
        Keys.pod(namespace, name),
        EvictionCommand.newBuilder()
            .setId("east/" + namespace + "/" + name + "/" + uid)
            .setPodUid(uid)
            .setGroup(group)
            .setDimensionsOver(dimensionsOver)
            .setReason(group + " uses more cpu than its runtime")
            .setReasonCode(reasonCode)
            .setIssuedAt(NOW.minusSeconds(1))
            .build());
  }

  private Pod createPod(final String name) {
    return mock.client()
        .resource(pod(namespace, name).quota(group).running("node-a").build())
        .create();
  }

  private List<Event> eventsOf(final String kind) {
    return mock.events(namespace).stream()
        .filter(event -> event.getRegarding().getKind().equals(kind))
        .toList();
  }
}

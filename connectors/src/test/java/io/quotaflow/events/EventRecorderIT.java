package io.quotaflow.events;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Events on a mock API server; no Kafka: the rig's broker and topics are never asked for. */
class EventRecorderIT {

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("events");

  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T12:00:00Z"));

  @Test
  void anEventIsCreatedInTheObjectsNamespaceAsTheEventsApiRequiresIt() {
    final ObjectReference pod = podReference("batch-1");

    recorder(EventSettings.defaults())
        .record(pod, EventRecorder.Type.WARNING, "Evicting", "Evict", "quotaflow evicts the pod");

    assertThat(events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getMetadata().getName()).startsWith("batch-1.");
              assertThat(event.getRegarding().getKind()).isEqualTo("Pod");
              assertThat(event.getRegarding().getName()).isEqualTo("batch-1");
              assertThat(event.getRegarding().getUid()).isEqualTo(pod.getUid());
              assertThat(event.getType()).isEqualTo("Warning");
              assertThat(event.getReason()).isEqualTo("Evicting");
              assertThat(event.getAction()).isEqualTo("Evict");
              assertThat(event.getNote()).isEqualTo("quotaflow evicts the pod");
              assertThat(event.getReportingController()).isEqualTo("quotaflow.io/test");
              assertThat(event.getReportingInstance()).startsWith("quotaflow.io/test-");
              assertThat(event.getEventTime().getTime()).isEqualTo("2026-03-01T12:00:00.000000Z");
              assertThat(event.getSeries()).isNull();
            });
  }

  @Test
  void aRepeatedEventWithinSixMinutesUpdatesTheSeriesOfTheFirstInsteadOfCreatingAnother() {
    final EventRecorder recorder = recorder(EventSettings.defaults());
    final ObjectReference pod = podReference("web-1");

    recorder.record(pod, EventRecorder.Type.WARNING, "OverUsed", "CheckQuota", "cpu 12 of 10");
    clock.advance(Duration.ofMinutes(2));
    recorder.record(pod, EventRecorder.Type.WARNING, "OverUsed", "CheckQuota", "cpu 13 of 10");
    clock.advance(Duration.ofMinutes(2));
    recorder.record(pod, EventRecorder.Type.WARNING, "OverUsed", "CheckQuota", "cpu 14 of 10");

    assertThat(events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getSeries().getCount()).isEqualTo(3);
              assertThat(event.getSeries().getLastObservedTime().getTime())
                  .isEqualTo("2026-03-01T12:04:00.000000Z");
              assertThat(event.getNote()).isEqualTo("cpu 14 of 10");
            });

    clock.advance(Duration.ofMinutes(7));
    recorder.record(pod, EventRecorder.Type.WARNING, "OverUsed", "CheckQuota", "cpu 11 of 10");

    assertThat(events()).as("a new Event after the window").hasSize(2);
  }

  @Test
  void eventsBeyondAnObjectsBurstAreDroppedUntilItsRateRefillsAndOtherObjectsAreNotAffected() {
    final EventRecorder recorder = recorder(new EventSettings(true, 1.0, 2));
    final ObjectReference flapping = podReference("flapping");
    final ObjectReference quiet = podReference("quiet");

    for (int i = 0; i < 10; i++) {
      // Alternating reasons: no series can absorb them, each one is a request.
      recorder.record(
          flapping,
          EventRecorder.Type.NORMAL,
          i % 2 == 0 ? "OverUsed" : "NoLongerOverUsed",
          "CheckQuota",
          "flap " + i);
    }
    recorder.record(quiet, EventRecorder.Type.NORMAL, "OverUsed", "CheckQuota", "once");

    assertThat(eventsOf("flapping")).as("the burst").hasSize(2);
    assertThat(eventsOf("quiet")).hasSize(1);
    assertThat(count("dropped")).isEqualTo(8.0);

    clock.advance(Duration.ofMinutes(1));
    recorder.record(flapping, EventRecorder.Type.NORMAL, "OverUsed", "CheckQuota", "later");

    assertThat(eventsOf("flapping")).as("one token per minute").hasSize(2);
    assertThat(count("series")).isEqualTo(1.0);
  }

  @Test
  void turnedOffNothingIsEmitted() {
    recorder(EventSettings.off())
        .record(podReference("batch-2"), EventRecorder.Type.WARNING, "Evicting", "Evict", "x");

    assertThat(events()).isEmpty();
  }

  private EventRecorder recorder(final EventSettings settings) {
    return new EventRecorder(
        "east", rig.mock().client(), "quotaflow.io/test", settings, clock, rig.registry());
  }

  private ObjectReference podReference(final String name) {
    final Pod pod = rig.mock().client().resource(pod(rig.namespace(), name).build()).create();
    return EventRecorder.reference(pod);
  }

  private List<Event> events() {
    return rig.mock().events(rig.namespace());
  }

  private List<Event> eventsOf(final String name) {
    return events().stream().filter(event -> event.getRegarding().getName().equals(name)).toList();
  }

  private double count(final String outcome) {
    return rig.registry().find("quotaflow.events").tag("outcome", outcome).counters().stream()
        .mapToDouble(counter -> counter.count())
        .sum();
  }
}

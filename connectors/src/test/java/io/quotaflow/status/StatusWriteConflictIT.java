package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.StatusWriters;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Koordinator's elastic quota controller left on beside quotaflow (issue 40, point 15): another
 * writer, with its own field manager, changes the runtime annotation back every time the status
 * writer writes it. The mock API server keeps managed fields as an API server does.
 */
class StatusWriteConflictIT {

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("conflict");

  private static final String KOORDINATOR = "koord-scheduler";
  private static final String THEIRS = "{\"cpu\":\"7\"}";
  private static final String OURS = "{\"cpu\":\"10\"}";
  // 3 overwrites within a minute; back off 1 s, doubling up to 4 s.
  private static final ConflictSettings QUICK =
      new ConflictSettings(3, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofSeconds(4));
  // How the writer behaved before it noticed other writers: it never gives way.
  private static final ConflictSettings NEVER =
      new ConflictSettings(
          Integer.MAX_VALUE, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofSeconds(4));

  @Test
  void theWriterGivesWayToAnotherWriterAfterThreeOverwritesAlertsAndWritesAgainOnceItStops()
      throws Exception {
    rig.mock().quotas().resource(quota(rig.namespace(), rig.group()).build()).create();
    final OtherWriter koordinator = rig.closeAfterTest(new OtherWriter());
    start(QUICK);

    send(Map.of("cpu", 10_000L));

    await().atMost(ConnectorRig.WAIT).until(() -> conflicts() == 1.0);
    assertThat(annotationPatches()).as("written until the third overwrite").isEqualTo(3.0);
    assertThat(overwrites()).isEqualTo(3.0);
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(events(ConflictAlerts.OVERWRITTEN))
                    .first()
                    .satisfies(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getNote())
                              .contains("field manager " + KOORDINATOR)
                              .contains(QuotaStatus.RUNTIME_ANNOTATION)
                              .contains("3 times within PT1M");
                        }));
    // Backing off: retries after 1 s, 2 s, 4 s, 4 s..., each overwritten again.
    await().atMost(ConnectorRig.WAIT).until(() -> skipped("conflict") >= 1.0);
    await().atMost(ConnectorRig.WAIT).until(() -> overwrites() >= 5.0);
    assertThat(conflicts()).isEqualTo(1.0);
    final double whileFighting = annotationPatches();
    assertThat(whileFighting).as("one write per retry").isLessThanOrEqualTo(overwrites() + 1);

    koordinator.close();

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              assertThat(conflicts()).isZero();
              assertThat(runtimeShown()).isEqualTo(OURS);
              assertThat(events(ConflictAlerts.NO_LONGER_OVERWRITTEN)).hasSize(1);
            });
    assertThat(annotationPatches()).isLessThanOrEqualTo(whileFighting + 1);
    assertThat(managers()).contains(QuotaPatcher.FIELD_MANAGER);
  }

  @Test
  void aWriterThatNeverGivesWayRewritesTheRuntimeOverAndOver() throws Exception {
    rig.mock().quotas().resource(quota(rig.namespace(), rig.group()).build()).create();
    final OtherWriter koordinator = rig.closeAfterTest(new OtherWriter());
    start(NEVER);

    send(Map.of("cpu", 10_000L));

    // The fight issue 40 describes: neither side stops (3 writes would be the end of it).
    await().atMost(Duration.ofSeconds(60)).until(() -> annotationPatches() >= 10.0);
    assertThat(koordinator.rewrites()).isGreaterThanOrEqualTo(9);
    assertThat(conflicts()).isZero();
  }

  /**
   * Koordinator's controller, as far as this test needs it: whenever the object's runtime
   * annotation is not its own value, it writes its own, as field manager {@code koord-scheduler}.
   */
  private static final class OtherWriter implements AutoCloseable {
    private final ExecutorService writes = Executors.newSingleThreadExecutor();
    private final AtomicInteger rewrites = new AtomicInteger();
    private final Watch watch;
    private volatile boolean on = true;

    OtherWriter() {
      final String namespace = rig.namespace();
      final String name = rig.group();
      final PatchContext context = PatchContext.of(PatchType.JSON_MERGE);
      context.setFieldManager(KOORDINATOR);
      this.watch =
          rig.mock()
              .quotas()
              .inNamespace(namespace)
              .withName(name)
              .watch(
                  new Watcher<>() {
                    @Override
                    public void eventReceived(
                        final Action action, final GenericKubernetesResource quota) {
                      final Map<String, String> annotations = quota.getMetadata().getAnnotations();
                      if (action == Action.DELETED
                          || annotations == null
                          || !annotations.containsKey(QuotaStatus.RUNTIME_ANNOTATION)
                          || THEIRS.equals(annotations.get(QuotaStatus.RUNTIME_ANNOTATION))) {
                        return;
                      }
                      writes.execute(
                          () -> {
                            if (on) {
                              rig.mock()
                                  .quotas()
                                  .inNamespace(namespace)
                                  .withName(name)
                                  .patch(
                                      context,
                                      "{\"metadata\":{\"annotations\":{\""
                                          + QuotaStatus.RUNTIME_ANNOTATION
                                          + "\":\""
                                          + THEIRS.replace("\"", "\\\"")
                                          + "\"}}}");
                              rewrites.incrementAndGet();
                            }
                          });
                    }

                    @Override
                    public void onClose(final WatcherException cause) {}
                  });
    }

    int rewrites() {
      return rewrites.get();
    }

    @Override
    public void close() throws InterruptedException {
      on = false;
      watch.close();
      writes.shutdown();
      writes.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private void start(final ConflictSettings conflicts) {
    rig.closeAfterTest(
            StatusWriters.writer(
                rig,
                StatusWriters.settings(Duration.ofMillis(300), StatusMode.KOORDINATOR)
                    .withConflicts(conflicts),
                new EventSettings(true, 60.0, 10)))
        .start();
  }

  private void send(final Map<String, Long> runtime) {
    final GroupRuntime value =
        GroupRuntime.newBuilder()
            .setRuntime(runtime)
            .setRequest(Map.of())
            .setUsed(Map.of())
            .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
            .build();
    try (KafkaProducer<QuotaKey, GroupRuntime> producer = rig.producer(rig.topics().runtime())) {
      producer.send(
          new ProducerRecord<>(rig.topics().runtime().name(), Keys.quota(rig.group()), value));
    }
  }

  private GenericKubernetesResource object() {
    return rig.mock().quotas().inNamespace(rig.namespace()).withName(rig.group()).get();
  }

  private String runtimeShown() {
    return object().getMetadata().getAnnotations().get(QuotaStatus.RUNTIME_ANNOTATION);
  }

  private List<String> managers() {
    return object().getMetadata().getManagedFields().stream()
        .map(ManagedFieldsEntry::getManager)
        .toList();
  }

  private List<Event> events(final String reason) {
    return rig.mock().events(rig.namespace()).stream()
        .filter(event -> reason.equals(event.getReason()))
        .toList();
  }

  private double conflicts() {
    final Gauge gauge =
        rig.registry().find("quotaflow.status.conflicts").tag("cluster", "east").gauge();
    return gauge == null ? Double.NaN : gauge.value();
  }

  private double overwrites() {
    return count("quotaflow.status.overwrites");
  }

  private double annotationPatches() {
    return rig
        .registry()
        .find("quotaflow.status.patches")
        .tag("part", "annotations")
        .counters()
        .stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double skipped(final String reason) {
    return rig.registry().find("quotaflow.status.skipped").tag("reason", reason).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double count(final String name) {
    return rig.registry().find(name).counters().stream().mapToDouble(Counter::count).sum();
  }
}

package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ResourcePublisherTest {

  private static final Topic<PodKey, PodState> PODS = TopicCatalogue.withDefaultPrefix().pods();

  private final Map<PodKey, Pod> store = new HashMap<>();
  private final List<Runnable> reconciliations = new ArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SentRecords<PodKey> sent = new SentRecords<>();
  private boolean synced = true;
  private MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());

  @Test
  void anAddedPodIsWrittenKeyedByClusterNamespaceAndName() {
    final Pod pod = inCluster(pod("team-a", "web-1").quota("a").request("cpu", "250m").build());

    publisher().onAdd(pod);

    assertThat(written()).hasSize(1);
    assertThat(key(written().get(0))).isEqualTo(key("web-1"));
    final PodState state = value(written().get(0)).orElseThrow();
    assertThat(state.getQuotaName()).contains("a");
    assertThat(state.getRequests()).isEqualTo(Map.of("cpu", 250L));
  }

  @Test
  void anUpdateThatChangesNothingQuotaflowReadsIsNotWritten() {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    final Pod before = inCluster(pod("team-a", "web-1").quota("a").build());
    publisher.onAdd(before);

    final Pod after = inCluster(relabelled(before, "release", "blue"));
    publisher.onUpdate(before, after);

    assertThat(written()).hasSize(1);
    assertThat(count(SourceMetrics.UNCHANGED)).isEqualTo(1.0);
  }

  @Test
  void anUpdateThatChangesWhatQuotaflowReadsIsWritten() {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    final Pod before = inCluster(pod("team-a", "web-1").quota("a").build());
    publisher.onAdd(before);

    publisher.onUpdate(before, inCluster(pod("team-a", "web-1").quota("b").build()));

    assertThat(written()).hasSize(2);
    assertThat(value(written().get(1)).orElseThrow().getQuotaName()).contains("b");
  }

  @Test
  void aDeletedPodBecomesATombstone() {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    final Pod pod = inCluster(pod("team-a", "web-1").build());
    publisher.onAdd(pod);

    store.remove(key("web-1"));
    publisher.onDelete(pod, true);

    assertThat(written()).hasSize(2);
    assertThat(key(written().get(1))).isEqualTo(key("web-1"));
    assertThat(value(written().get(1))).isEmpty();
  }

  @Test
  void aDeleteOfAKeyTheTopicDoesNotHoldWritesNothing() {
    final Pod pod = pod("team-a", "never-written").build();

    publisher().onDelete(pod, false);

    assertThat(written()).isEmpty();
  }

  @Test
  void anEventWritesTheStoresCurrentObjectNotTheEventsCopy() {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    final Pod stale = pod("team-a", "web-1").quota("old").build();
    inCluster(pod("team-a", "web-1").quota("new").build());

    publisher.onAdd(stale);

    assertThat(value(written().get(0)).orElseThrow().getQuotaName()).contains("new");
  }

  @Test
  void reconciliationTombstonesKeysTheTopicHoldsButTheClusterDoesNot() {
    sent.seed(Map.of(key("gone"), new byte[] {1}, key("here"), bytesOf("here")));
    inCluster(pod("team-a", "here").build());

    final int writtenCount = publisher().reconcile();

    assertThat(writtenCount).isEqualTo(1);
    assertThat(key(written().get(0))).isEqualTo(key("gone"));
    assertThat(value(written().get(0))).isEmpty();
  }

  @Test
  void reconciliationWaitsForTheFirstList() {
    sent.seed(Map.of(key("gone"), new byte[] {1}));
    synced = false;

    assertThat(publisher().reconcile()).isZero();
    assertThat(written()).isEmpty();
  }

  @Test
  void theSnapshotOfTheFirstListWritesOnlyWhatTheListsOwnEventsDidNot()
      throws InterruptedException {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    publisher.openSnapshot(Instant.parse("2026-11-26T12:00:00Z"), "connectors-0");
    // The list: web-1 is new and written by its event; web-2 is what the topic already holds.
    publisher.onAdd(inCluster(pod("team-a", "web-1").build()));
    inCluster(pod("team-a", "web-2").build());
    sent.seed(Map.of(key("web-2"), bytesOf("web-2")));

    final ResourcePublisher.PendingSnapshot snapshot =
        publisher.startSnapshot(Instant.now(), "connectors-0").orElseThrow();
    assertThat(publisher.endSnapshot(snapshot, Duration.ofSeconds(1), "connectors-0")).isTrue();

    assertThat(written()).hasSize(4);
    assertThat(SourceMarkers.read(written().get(0).headers()).orElseThrow().getKind())
        .isEqualTo(MarkerKind.SNAPSHOT_START);
    assertThat(key(written().get(1))).isEqualTo(key("web-1"));
    assertThat(key(written().get(2))).as("written once, by the snapshot").isEqualTo(key("web-2"));
    final SourceMarker end = SourceMarkers.read(written().get(3).headers()).orElseThrow();
    assertThat(end.getKind()).isEqualTo(MarkerKind.SNAPSHOT_END);
    assertThat(end.getEpoch()).isEqualTo(Instant.parse("2026-11-26T12:00:00Z").toEpochMilli());
    assertThat(end.getObjects()).isEqualTo(2);
  }

  @Test
  void theFirstSnapshotOfTwentyThousandPodsNamedAlikeHoldsEachOnce() {
    // Issue 32's organisation: worker-0 .. worker-9 (and worker-10 in every third team) of
    // dept-00-team-000 .. dept-19-team-099. Their keys' hash codes fall in long runs, which made
    // each lookup in an immutable Set.copyOf of them scan thousands of keys.
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    publisher.openSnapshot(Instant.parse("2026-11-26T12:00:00Z"), "connectors-0");
    int pods = 0;
    for (int team = 0; team < 2_000; team++) {
      final String namespace = "dept-%02d-team-%03d".formatted(team / 100, team % 100);
      for (int worker = 0; worker < (team % 3 == 0 ? 11 : 10); worker++) {
        final Pod pod = pod(namespace, "worker-" + worker).build();
        store.put(
            PodKey.newBuilder()
                .setCluster("east")
                .setNamespace(namespace)
                .setName("worker-" + worker)
                .build(),
            pod);
        publisher.onAdd(pod);
        pods++;
      }
    }
    final ResourcePublisher.PendingSnapshot snapshot =
        publisher.startSnapshot(Instant.now(), "connectors-0").orElseThrow();

    // About 5 s with Set.copyOf on an idle 2-core machine, 0.2 s with HashSet (measured with JFR,
    // docs/PERFORMANCE.md); speed is a benchmark's to show, this test checks the snapshot's
    // content.
    assertThat(snapshot.objects()).isEqualTo(pods).isEqualTo(20_667);
    assertThat(written()).as("start marker and the list's own writes only").hasSize(pods + 1);
  }

  @Test
  void everyListAsksForAReconciliationOffTheInformersThread() {
    sent.seed(Map.of(key("gone"), new byte[] {1}));
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();

    publisher.onList("42", false);

    assertThat(written()).isEmpty();
    reconciliations.forEach(Runnable::run);
    assertThat(written()).hasSize(1);
  }

  @Test
  void aWriteThatFailsIsCountedAndWrittenAgainByTheNextReconciliation() {
    producer =
        new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    publisher.onAdd(inCluster(pod("team-a", "web-1").build()));

    producer.errorNext(new TimeoutException("delivery timed out"));

    assertThat(count(SourceMetrics.FAILED)).isEqualTo(1.0);
    assertThat(publisher.reconcile()).isEqualTo(1);
    assertThat(written()).hasSize(2);
    assertThat(value(written().get(1))).isPresent();
  }

  @Test
  void aPodWithUnreadableFieldsIsWrittenWithThemMarked() {
    final Pod pod = inCluster(pod("team-a", "odd").request("cpu", "1.5.0").build());

    publisher().onAdd(pod);

    final PodState state = value(written().get(0)).orElseThrow();
    assertThat(state.getProblems())
        .extracting(problem -> problem.getField())
        .containsExactly("spec.containers[0].resources.requests[cpu]");
    assertThat(state.getRequests()).doesNotContainKey("cpu");
    assertThat(count(SourceMetrics.MALFORMED)).isEqualTo(1.0);
  }

  @Test
  void aHeartbeatIsAMarkerUnderTheClustersMarkerKeyWithoutAValue() {
    final Instant at = Instant.parse("2026-11-26T12:00:00Z");

    assertThat(publisher().heartbeat(at, "connectors-0")).isTrue();

    final ProducerRecord<byte[], byte[]> record = written().get(0);
    assertThat(record.value()).isNull();
    assertThat(PODS.keyDeserializer().deserialize(PODS.name(), record.key()))
        .isEqualTo(SourceMarkers.podKey("east"));
    final SourceMarker marker = SourceMarkers.read(record.headers()).orElseThrow();
    assertThat(marker.getKind()).isEqualTo(MarkerKind.HEARTBEAT);
    assertThat(marker.getCluster()).isEqualTo("east");
    assertThat(marker.getAt()).isEqualTo(at);
    assertThat(marker.getSource()).isEqualTo("connectors-0");
  }

  @Test
  void noHeartbeatBeforeTheInformersFirstList() {
    synced = false;

    assertThat(publisher().heartbeat(Instant.now(), "connectors-0")).isFalse();

    assertThat(written()).isEmpty();
  }

  @Test
  void aSnapshotResendsEveryObjectTombstonesTheGoneAndEndsOnceAllIsAcknowledged()
      throws InterruptedException {
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    publisher.onAdd(inCluster(pod("team-a", "web-1").build()));
    publisher.onAdd(inCluster(pod("team-a", "web-2").build()));
    // web-2 is deleted while its tombstone cannot be written.
    store.remove(key("web-2"));
    final Instant at = Instant.parse("2026-11-26T12:00:00Z");

    final ResourcePublisher.PendingSnapshot snapshot =
        publisher.startSnapshot(at, "connectors-0").orElseThrow();
    assertThat(publisher.endSnapshot(snapshot, Duration.ofSeconds(1), "connectors-0")).isTrue();

    final List<ProducerRecord<byte[], byte[]>> records = written().subList(2, written().size());
    assertThat(records).hasSize(4);
    final SourceMarker start = SourceMarkers.read(records.get(0).headers()).orElseThrow();
    assertThat(start.getKind()).isEqualTo(MarkerKind.SNAPSHOT_START);
    assertThat(start.getEpoch()).isEqualTo(at.toEpochMilli());
    assertThat(key(records.get(1))).isEqualTo(key("web-1"));
    assertThat(value(records.get(1))).as("re-sent though unchanged").isPresent();
    assertThat(key(records.get(2))).isEqualTo(key("web-2"));
    assertThat(records.get(2).value()).as("tombstone of the gone pod").isNull();
    final SourceMarker end = SourceMarkers.read(records.get(3).headers()).orElseThrow();
    assertThat(end.getKind()).isEqualTo(MarkerKind.SNAPSHOT_END);
    assertThat(end.getEpoch()).isEqualTo(start.getEpoch());
    assertThat(end.getObjects()).isEqualTo(1);
  }

  @Test
  void aSnapshotWithAFailedWriteWritesNoEndMarker() throws InterruptedException {
    producer =
        new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    final ResourcePublisher<Pod, PodKey, PodState> publisher = publisher();
    inCluster(pod("team-a", "web-1").build());

    final ResourcePublisher.PendingSnapshot snapshot =
        publisher.startSnapshot(Instant.now(), "connectors-0").orElseThrow();
    producer.completeNext();
    producer.errorNext(new TimeoutException("expired"));

    assertThat(publisher.endSnapshot(snapshot, Duration.ofSeconds(1), "connectors-0")).isFalse();
    assertThat(written()).hasSize(2).noneMatch(record -> isEnd(record));
    assertThat(sent.hasUnconfirmed()).as("the failed write is repeated later").isTrue();
  }

  private static boolean isEnd(final ProducerRecord<byte[], byte[]> record) {
    return SourceMarkers.read(record.headers())
        .map(marker -> marker.getKind() == MarkerKind.SNAPSHOT_END)
        .orElse(false);
  }

  private ResourcePublisher<Pod, PodKey, PodState> publisher() {
    return new ResourcePublisher<>(
        "east",
        new PodKind(PODS),
        key -> Optional.ofNullable(store.get(key)),
        () -> synced,
        producer,
        sent,
        new SourceMetrics(registry, "east", "pods"),
        reconciliations::add,
        store::values);
  }

  private Pod inCluster(final Pod pod) {
    store.put(key(pod.getMetadata().getName()), pod);
    return pod;
  }

  private byte[] bytesOf(final String name) {
    return PODS.valueSerializer()
        .serialize(
            PODS.name(),
            RecordMapping.podState(
                io.quotaflow.kube.PodAdapter.toQuotaPod(pod("team-a", name).build())));
  }

  private static Pod relabelled(final Pod pod, final String label, final String value) {
    return new PodBuilder(pod).editMetadata().addToLabels(label, value).endMetadata().build();
  }

  private List<ProducerRecord<byte[], byte[]>> written() {
    return producer.history();
  }

  private static PodKey key(final ProducerRecord<byte[], byte[]> record) {
    return PODS.keyDeserializer().deserialize(PODS.name(), record.key());
  }

  private static Optional<PodState> value(final ProducerRecord<byte[], byte[]> record) {
    return Optional.ofNullable(PODS.valueDeserializer().deserialize(PODS.name(), record.value()));
  }

  private static PodKey key(final String name) {
    return PodKey.newBuilder().setCluster("east").setNamespace("team-a").setName(name).build();
  }

  private double count(final String metric) {
    return registry.get(metric).counter().count();
  }
}

package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.DeviceRequest;
import io.quotaflow.schemas.ExactDeviceRequest;
import io.quotaflow.schemas.Fixtures;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster-event serde copies the body of an input value its thread just read instead of
 * encoding it again: the bytes must be exactly Avro's encoding of the whole event, whichever way
 * they are made.
 */
class ClusterEventSerdeTest {
  private final AvroSerde<PodState> pods = AvroSerde.forValues(PodState.class);
  private final AvroSerde<PodState> podsRead = pods.rememberingRecentRecords();
  private final AvroSerde<QuotaSpec> quotasRead =
      AvroSerde.forValues(QuotaSpec.class).rememberingRecentRecords();
  private final AvroSerde<NodeState> nodesRead =
      AvroSerde.forValues(NodeState.class).rememberingRecentRecords();
  private final AvroSerde<ClusterEvent> events =
      AvroSerde.clusterEvents(List.of(podsRead, quotasRead, nodesRead));
  private final AvroSerde<ClusterEvent> plainEvents = AvroSerde.forValues(ClusterEvent.class);

  @Test
  void anEventOfAPodJustReadIsWrittenAsAvroWritesItWithThePodAsItsProducerWroteIt() {
    final PodState original = pod("a");
    final PodState read =
        podsRead.deserializer().deserialize("t", pods.serializer().serialize("t", original));
    final ClusterEvent event = event(ClusterEventKind.POD, "apps", read);

    final byte[] written = events.serializer().serialize("store", event);

    // A decoded map may iterate in another order than the producer's, so encoding the read pod
    // again could order its map entries differently; the copied body keeps the producer's order.
    assertThat(written)
        .isEqualTo(
            plainEvents
                .serializer()
                .serialize("store", event(ClusterEventKind.POD, "apps", original)));
    assertThat(events.deserializer().deserialize("store", written)).isEqualTo(event);
  }

  @Test
  void quotaAndNodeEventsToo() {
    final AvroSerde<QuotaSpec> quotas = AvroSerde.forValues(QuotaSpec.class);
    final AvroSerde<NodeState> nodes = AvroSerde.forValues(NodeState.class);
    final QuotaSpec quota =
        quotasRead
            .deserializer()
            .deserialize("t", quotas.serializer().serialize("t", Fixtures.quotaSpec().build()));
    final NodeState node =
        nodesRead
            .deserializer()
            .deserialize("t", nodes.serializer().serialize("t", Fixtures.nodeState().build()));

    for (final ClusterEvent event :
        List.of(event(ClusterEventKind.QUOTA, "", quota), event(ClusterEventKind.NODE, "", node))) {
      final byte[] written = events.serializer().serialize("store", event);
      assertThat(plainEvents.deserializer().deserialize("store", written)).isEqualTo(event);
    }
    assertThat(
            events.serializer().serialize("store", event(ClusterEventKind.NODE, "", node)).length)
        .isEqualTo(
            plainEvents
                .serializer()
                .serialize("store", event(ClusterEventKind.NODE, "", Fixtures.nodeState().build()))
                .length);
  }

  @Test
  void tombstonesResultsAndValuesNotJustReadAreEncodedInFull() {
    final ClusterEvent tombstone = event(ClusterEventKind.POD, "apps", null);
    final ClusterEvent notRead = event(ClusterEventKind.POD, "apps", pod("b"));
    final ClusterEvent result =
        new ClusterEvent(
            ClusterEventKind.EVICTION_RESULT,
            "east",
            "apps",
            "a",
            null,
            Fixtures.evictionResult().build(),
            null,
            null,
            "results",
            2,
            7L,
            null,
            null,
            null);
    final ClusterEvent podGroup =
        new ClusterEvent(
            ClusterEventKind.PODGROUP,
            "east",
            "apps",
            "volcano/train",
            null,
            null,
            null,
            null,
            "podgroups",
            1,
            3L,
            null,
            new PodGroupSpec("uid-1", 8, List.of()),
            null);

    for (final ClusterEvent event : List.of(tombstone, notRead, result, podGroup)) {
      assertThat(events.serializer().serialize("store", event))
          .isEqualTo(plainEvents.serializer().serialize("store", event));
    }
    assertThat(events.serializer().serialize("store", null)).isNull();
  }

  @Test
  void draEventsAreEncodedInFullAndReadBack() {
    final ResourceClaimState claim =
        ResourceClaimState.newBuilder()
            .setRequests(
                List.of(
                    DeviceRequest.newBuilder()
                        .setName("gpus")
                        .setExactly(
                            ExactDeviceRequest.newBuilder()
                                .setDeviceClassName("gpu.nvidia.com")
                                .setCount(2L)
                                .build())
                        .build()))
            .build();
    final ClusterEvent event =
        new ClusterEvent(
            ClusterEventKind.RESOURCE_CLAIM,
            "east",
            "apps",
            "train",
            null,
            null,
            null,
            null,
            "resourceclaims.v1",
            1,
            4L,
            null,
            null,
            claim);

    final byte[] written = events.serializer().serialize("store", event);

    assertThat(written).isEqualTo(plainEvents.serializer().serialize("store", event));
    assertThat(events.deserializer().deserialize("store", written)).isEqualTo(event);
  }

  @Test
  void onlyRememberingValueSerdesCanBeCopiedFrom() {
    assertThatThrownBy(() -> AvroSerde.clusterEvents(List.of(pods)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static PodState pod(final String uid) {
    return Fixtures.podState().setUid(uid).build();
  }

  private static ClusterEvent event(
      final ClusterEventKind kind, final String namespace, final Object value) {
    return new ClusterEvent(
        kind, "east", namespace, "a", value, null, null, null, "pods.v1", 3, 12_345L, null, null,
        null);
  }
}

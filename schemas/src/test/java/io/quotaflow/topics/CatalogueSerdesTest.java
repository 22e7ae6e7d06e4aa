package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.Fixtures;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.serde.RecordRole;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every record type survives a trip through the serdes the catalogue hands out. */
class CatalogueSerdesTest {
  private static final TopicCatalogue CATALOGUE = TopicCatalogue.withDefaultPrefix();

  static Stream<Arguments> fullRecords() {
    return Stream.of(
        Arguments.of(CATALOGUE.pods(), Fixtures.podKey(), Fixtures.podState().build()),
        Arguments.of(CATALOGUE.quotas(), Fixtures.quotaKey(), Fixtures.quotaSpec().build()),
        Arguments.of(CATALOGUE.nodes(), Fixtures.nodeKey(), Fixtures.nodeState().build()),
        Arguments.of(
            CATALOGUE.podGroups(),
            new PodGroupKey("east", "volcano", "apps", "train"),
            new PodGroupSpec(
                "uid-1", 8, List.of(new FieldProblem("spec.minMember", "not a number")))),
        Arguments.of(
            CATALOGUE.podGroups(),
            new PodGroupKey("east", "scheduler-plugins", "apps", "train"),
            new PodGroupSpec("", null, List.of())),
        Arguments.of(CATALOGUE.runtime(), Fixtures.quotaKey(), Fixtures.groupRuntime().build()),
        Arguments.of(CATALOGUE.podClasses(), Fixtures.podKey(), Fixtures.podQuotaClass().build()),
        Arguments.of(CATALOGUE.evictions(), Fixtures.podKey(), Fixtures.evictionCommand().build()),
        Arguments.of(
            CATALOGUE.evictionResults(), Fixtures.podKey(), Fixtures.evictionResult().build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fullRecords")
  <K, V> void keyAndValueRoundTripThroughTheTopicSerdes(
      final Topic<K, V> topic, final K key, final V value) {
    final byte[] keyBytes = topic.keySerializer().serialize(topic.name(), key);
    final byte[] valueBytes = topic.valueSerializer().serialize(topic.name(), value);

    assertThat(topic.keyDeserializer().deserialize(topic.name(), keyBytes)).isEqualTo(key);
    assertThat(topic.valueDeserializer().deserialize(topic.name(), valueBytes)).isEqualTo(value);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fullRecords")
  <K, V> void nullValueIsATombstoneBothWays(final Topic<K, V> topic) {
    assertThat(topic.valueSerializer().serialize(topic.name(), null)).isNull();
    assertThat(topic.valueDeserializer().deserialize(topic.name(), null)).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fullRecords")
  <K, V> void garbageFailsWithTheTopicAndRole(final Topic<K, V> topic) {
    final byte[] garbage = "garbage".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> topic.keyDeserializer().deserialize(topic.name(), garbage))
        .isInstanceOfSatisfying(
            RecordDecodingException.class,
            e -> {
              assertThat(e.topic()).isEqualTo(topic.name());
              assertThat(e.role()).isEqualTo(RecordRole.KEY);
            });
    assertThatThrownBy(() -> topic.valueDeserializer().deserialize(topic.name(), garbage))
        .isInstanceOfSatisfying(
            RecordDecodingException.class, e -> assertThat(e.role()).isEqualTo(RecordRole.VALUE));
  }

  @Test
  void keysOfOneTopicAreNotValuesOfAnother() {
    final byte[] podKey = CATALOGUE.pods().keySerializer().serialize("x", Fixtures.podKey());

    assertThatThrownBy(() -> CATALOGUE.pods().valueDeserializer().deserialize("x", podKey))
        .isInstanceOf(RecordDecodingException.class)
        .hasMessageContaining("unknown schema fingerprint");
  }

  @Test
  void optionalFieldsLeftUnsetReadBackAsEmpty() {
    final PodState minimal = PodState.newBuilder().setUid("u").setCreationTime(Fixtures.T0).build();

    final PodState read = roundTrip(CATALOGUE.pods(), minimal);

    assertThat(read).isEqualTo(minimal);
    assertThat(read.getQuotaName()).isEmpty();
    assertThat(read.getNodeName()).isEmpty();
    assertThat(read.getStartTime()).isEmpty();
    assertThat(read.getDeletionTime()).isEmpty();
    assertThat(read.getPhase()).isEqualTo(PodPhase.UNKNOWN);
    assertThat(read.getPreemptible()).isTrue();
    assertThat(read.getRequests()).isEmpty();
    assertThat(read.getProblems()).isEmpty();
  }

  @Test
  void defaultsOfTheOtherRecordsAreTheDocumentedOnes() {
    final QuotaSpec quota = roundTrip(CATALOGUE.quotas(), QuotaSpec.newBuilder().build());
    assertThat(quota.getParent()).isEmpty();
    assertThat(quota.getSharedWeight()).isEmpty();
    assertThat(quota.getLendingLimit()).isEmpty();
    assertThat(quota.getBorrowingLimit()).isEmpty();
    assertThat(quota.getAllowLent()).isTrue();
    assertThat(quota.getIsParent()).isFalse();
    assertThat(quota.getNamespaces()).isEmpty();

    final NodeState node = roundTrip(CATALOGUE.nodes(), NodeState.newBuilder().build());
    assertThat(node.getDeleting()).isFalse();
    assertThat(node.getSchedulable()).isTrue();

    final GroupRuntime runtime =
        roundTrip(
            CATALOGUE.runtime(), GroupRuntime.newBuilder().setComputedAt(Fixtures.T0).build());
    assertThat(runtime.getValid()).isTrue();
    assertThat(runtime.getReason()).isEmpty();
    assertThat(runtime.getRuntime()).isEmpty();
  }

  @Test
  void aRecordMissingARequiredFieldFailsToEncodeNamingTheTopic() {
    final EvictionResult incomplete = new EvictionResult();

    assertThatThrownBy(
            () ->
                CATALOGUE
                    .evictionResults()
                    .valueSerializer()
                    .serialize(CATALOGUE.evictionResults().name(), incomplete))
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(RecordDecodingException.class)
        .hasMessageStartingWith(
            "Cannot encode value EvictionResult for topic quotaflow.eviction-results.v1: ");
  }

  @Test
  void rejectedTopicPassesBytesThroughUntouched() {
    final byte[] raw = {0, 1, 2, (byte) 0xFF};
    final Topic<byte[], byte[]> rejected = CATALOGUE.rejected();

    assertThat(
            rejected
                .valueDeserializer()
                .deserialize(
                    rejected.name(), rejected.valueSerializer().serialize(rejected.name(), raw)))
        .isEqualTo(raw);
    assertThat(rejected.keySerializer().serialize(rejected.name(), null)).isNull();
  }

  private static <K, V> V roundTrip(final Topic<K, V> topic, final V value) {
    return topic
        .valueDeserializer()
        .deserialize(topic.name(), topic.valueSerializer().serialize(topic.name(), value));
  }
}

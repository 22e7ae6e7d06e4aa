package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.Fixtures;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** Bytes that are not a record of the topic's type all fail the same readable way. */
class AvroDeserializerTest {
  private static final String TOPIC = "test.pods.v1";

  private final AvroSerde<PodState> values = AvroSerde.forValues(PodState.class);
  private final AvroSerde<PodKey> keys = AvroSerde.forKeys(PodKey.class);
  private final byte[] valid = values.serializer().serialize(TOPIC, Fixtures.podState().build());

  @Test
  void emptyBytesAreShorterThanTheHeader() {
    assertRejected(new byte[0], "0 bytes, shorter than the 10-byte header");
  }

  @Test
  void bytesWithoutTheMarkerAreNotSingleObjectEncoded() {
    assertRejected(
        "{\"uid\":\"x\"}".getBytes(StandardCharsets.UTF_8),
        "starts with 0x7B 0x22 instead of the marker 0xC3 0x01");
  }

  @Test
  void aRecordOfAnotherTypeHasAnUnknownFingerprint() {
    final byte[] quota =
        AvroSerde.forValues(QuotaSpec.class)
            .serializer()
            .serialize(TOPIC, Fixtures.quotaSpec().build());

    assertRejected(quota, "unknown schema fingerprint 0x");
    assertRejected(quota, "neither the current PodState schema nor any released version");
  }

  @Test
  void aTruncatedRecordIsNotAValidRecord() {
    assertRejected(
        Arrays.copyOf(valid, valid.length - 3),
        (valid.length - 3) + " bytes with schema fingerprint 0x");
    assertRejected(Arrays.copyOf(valid, valid.length - 3), "are not a valid PodState");
  }

  @Test
  void aRecordFollowedByMoreBytesIsRejected() {
    assertRejected(
        Arrays.copyOf(valid, valid.length + 2), "trailing bytes after a complete PodState");
  }

  @Test
  void aCorruptedLengthDoesNotAllocateWhatItClaims() {
    // After the 10-byte header comes the uid's length as a zig-zag varint: claim ~1 GiB.
    final byte[] corrupted = Arrays.copyOf(valid, valid.length);
    corrupted[10] = (byte) 0xFE;
    corrupted[11] = (byte) 0xFF;
    corrupted[12] = (byte) 0xFF;
    corrupted[13] = (byte) 0xFF;
    corrupted[14] = (byte) 0x07;

    assertRejected(corrupted, "are not a valid PodState");
  }

  @Test
  void theExceptionNamesTopicRoleAndReason() {
    assertThatThrownBy(() -> keys.deserializer().deserialize(TOPIC, new byte[] {1, 2, 3}))
        .isInstanceOfSatisfying(
            RecordDecodingException.class,
            e -> {
              assertThat(e.topic()).isEqualTo(TOPIC);
              assertThat(e.role()).isEqualTo(RecordRole.KEY);
              assertThat(e.reason()).startsWith("not single-object encoded Avro");
              assertThat(e).hasMessageStartingWith("Cannot decode key of topic " + TOPIC + ": ");
            })
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void aDecodingFailureLeavesTheDeserializerUsable() {
    assertThatThrownBy(() -> values.deserializer().deserialize(TOPIC, new byte[] {9}))
        .isInstanceOf(RecordDecodingException.class);

    assertThat(values.deserializer().deserialize(TOPIC, valid))
        .isEqualTo(Fixtures.podState().build());
  }

  private void assertRejected(final byte[] bytes, final String reason) {
    assertThatThrownBy(() -> values.deserializer().deserialize(TOPIC, bytes))
        .isInstanceOfSatisfying(
            RecordDecodingException.class,
            e -> {
              assertThat(e.topic()).isEqualTo(TOPIC);
              assertThat(e.role()).isEqualTo(RecordRole.VALUE);
              assertThat(e.reason()).contains(reason);
            });
  }
}

package io.quotaflow.engine.reclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.reason.Reason;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.serde.AvroDeserializer;
import io.quotaflow.serde.RecordRole;
import io.quotaflow.serde.SchemaHistory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reason code readers take from a command: the one it carries, or, for a command written before
 * EvictionCommand v4 had the field, the one its over-used dimensions imply; and the code of a
 * result.
 */
class EvictionReasonsTest {
  private static final Instant ISSUED = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void aCommandsOwnCodeIsKeptEvenOneThisVersionDoesNotKnow() {
    assertThat(EvictionReasons.of(command(List.of("cpu")).setReasonCode("node-reserved").build()))
        .isEqualTo("node-reserved");
    assertThat(EvictionReasons.of(command(List.of()).setReasonCode("a-later-code").build()))
        .isEqualTo("a-later-code");
  }

  @Test
  void aCommandWithoutACodeWhoseGroupWasOverUsedWasReclaimedAfterTheDelay() {
    assertThat(EvictionReasons.of(command(List.of("cpu", "nvidia.com/gpu")).build()))
        .isEqualTo(Reason.RECLAIMED_AFTER_DELAY.code());
  }

  @Test
  void aCommandWithoutACodeOrAnOverUsedDimensionFreedAReservedNode() {
    assertThat(EvictionReasons.of(command(List.of()).build()))
        .isEqualTo(Reason.NODE_RESERVED.code());
  }

  @Test
  void aResultBlockedByADisruptionBudgetHasItsOwnReason() {
    final EvictionCommand reserved = command(List.of()).setReasonCode("node-reserved").build();

    assertThat(EvictionReasons.ofResult(reserved, EvictionOutcome.BLOCKED_BY_BUDGET))
        .isEqualTo(Reason.BLOCKED_BY_BUDGET.code());
  }

  @ParameterizedTest
  @EnumSource(
      value = EvictionOutcome.class,
      names = {"BLOCKED_BY_BUDGET"},
      mode = EnumSource.Mode.EXCLUDE)
  void anyOtherResultHasTheReasonOfItsCommand(final EvictionOutcome outcome) {
    final EvictionCommand reserved = command(List.of()).setReasonCode("node-reserved").build();

    assertThat(EvictionReasons.ofResult(reserved, outcome)).isEqualTo("node-reserved");
  }

  @Test
  void aVersion3CommandReadsWithAnEmptyCodeAndFallsBack() {
    final Schema v3 = SchemaHistory.of(EvictionCommand.class).versions().get(2);
    final GenericRecord written =
        new GenericRecordBuilder(v3)
            .set("id", "c-1")
            .set("podUid", "a0-uid")
            .set("group", "team-a")
            .set("dimensionsOver", List.of("cpu"))
            .set("reason", "team-a used more than its runtime")
            .set("issuedAt", ISSUED.toEpochMilli())
            .build();

    final EvictionCommand read =
        new AvroDeserializer<>(EvictionCommand.class, RecordRole.VALUE)
            .deserialize("quotaflow.evictions.v1", encode(v3, written));

    assertThat(read.getReasonCode()).isEmpty();
    assertThat(EvictionReasons.of(read)).isEqualTo("reclaimed-after-delay");
  }

  private static EvictionCommand.Builder command(final List<String> dimensionsOver) {
    return EvictionCommand.newBuilder()
        .setId("c-1")
        .setPodUid("a0-uid")
        .setGroup("team-a")
        .setDimensionsOver(dimensionsOver)
        .setIssuedAt(ISSUED);
  }

  private static byte[] encode(final Schema writer, final GenericRecord record) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }
}

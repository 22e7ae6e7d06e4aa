package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericData.EnumSymbol;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;

/**
 * Records written with another version of a schema are read by the current class once that version
 * is in the reader's history: fields the writer lacked take their defaults, fields the reader lacks
 * are dropped, enum symbols it does not know read as the enum's default.
 */
class WriterSchemaResolutionTest {
  private static final String TOPIC = "test.pods.v1";
  private static final SchemaHistory FIXTURE_HISTORY =
      SchemaHistory.load(
          "fixture-history",
          PodState.getClassSchema().getFullName(),
          WriterSchemaResolutionTest.class.getClassLoader());
  private static final Schema OLDER = FIXTURE_HISTORY.versions().get(0);
  private static final Schema NEWER = FIXTURE_HISTORY.versions().get(1);
  private static final long CREATED_MILLIS = 1_772_366_400_123L;

  private final AvroDeserializer<PodState> readerKnowingFixtures =
      new AvroDeserializer<>(PodState.class, RecordRole.VALUE, FIXTURE_HISTORY);

  @Test
  void olderRecordReadsWithDefaultsForFieldsItLacked() {
    final GenericRecord old =
        new GenericRecordBuilder(OLDER)
            .set("uid", "old-uid")
            .set("quotaName", "team-a")
            .set("phase", new EnumSymbol(OLDER.getField("phase").schema(), "RUNNING"))
            .set("nodeName", "node-1")
            .set("priority", 7)
            .set("requests", Map.of("cpu", 500L))
            .set("creationTime", CREATED_MILLIS)
            .set("startTime", null)
            .build();

    final PodState read = readerKnowingFixtures.deserialize(TOPIC, encode(OLDER, old));

    assertThat(read.getUid()).isEqualTo("old-uid");
    assertThat(read.getQuotaName()).contains("team-a");
    assertThat(read.getPhase()).isEqualTo(PodPhase.RUNNING);
    assertThat(read.getPriority()).isEqualTo(7);
    assertThat(read.getRequests()).containsExactly(Map.entry("cpu", 500L));
    assertThat(read.getCreationTime().toEpochMilli()).isEqualTo(CREATED_MILLIS);
    assertThat(read.getStartTime()).isEmpty();
    assertThat(read.getPreemptible()).as("default of a field the writer lacked").isTrue();
    assertThat(read.getDeletionTime()).isEmpty();
    assertThat(read.getProblems()).isEmpty();
  }

  @Test
  void newerRecordReadsUnknownEnumSymbolAsUnknownAndDropsUnknownFields() {
    final Schema problemSchema = NEWER.getField("problems").schema().getElementType();
    final GenericRecord newer =
        new GenericRecordBuilder(NEWER)
            .set("uid", "new-uid")
            .set("phase", new EnumSymbol(NEWER.getField("phase").schema(), "HIBERNATING"))
            .set("creationTime", CREATED_MILLIS)
            .set(
                "problems",
                List.of(
                    new GenericRecordBuilder(problemSchema)
                        .set("field", "spec.x")
                        .set("reason", "bad")
                        .build()))
            .set("qosClass", "Guaranteed")
            .build();

    final PodState read = readerKnowingFixtures.deserialize(TOPIC, encode(NEWER, newer));

    assertThat(read.getUid()).isEqualTo("new-uid");
    assertThat(read.getPhase()).isEqualTo(PodPhase.UNKNOWN);
    assertThat(read.getProblems())
        .singleElement()
        .satisfies(p -> assertThat(p.getField()).isEqualTo("spec.x"));
    assertThat(read.getSchema().getField("qosClass")).isNull();
  }

  @Test
  void recordOfAVersionMissingFromTheHistoryIsRejectedAsUnknown() {
    final GenericRecord old =
        new GenericRecordBuilder(OLDER)
            .set("uid", "old-uid")
            .set("phase", new EnumSymbol(OLDER.getField("phase").schema(), "PENDING"))
            .set("creationTime", CREATED_MILLIS)
            .build();
    final AvroDeserializer<PodState> releasedOnly =
        new AvroDeserializer<>(PodState.class, RecordRole.VALUE);

    assertThatThrownBy(() -> releasedOnly.deserialize(TOPIC, encode(OLDER, old)))
        .isInstanceOf(RecordDecodingException.class)
        .hasMessageContaining(TOPIC)
        .hasMessageContaining("unknown schema fingerprint");
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

package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.Fixtures;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/** A remembering serde writes the bytes it read or wrote for the same record, and only those. */
class RememberingSerdeTest {
  private final AvroSerde<PodState> plain = AvroSerde.forValues(PodState.class);
  private final AvroSerde<PodState> remembering = plain.rememberingRecentRecords();

  @Test
  void aRecordWrittenTwiceIsEncodedOnce() {
    final PodState pod = Fixtures.podState().build();

    final byte[] first = remembering.serializer().serialize("t", pod);
    final byte[] second = remembering.serializer().serialize("t", pod);

    assertThat(second).isSameAs(first).isEqualTo(plain.serializer().serialize("t", pod));
  }

  @Test
  void aRecordWrittenAfterItWasReadGetsTheBytesItWasReadFrom() {
    final byte[] read = plain.serializer().serialize("t", Fixtures.podState().build());

    final PodState pod = remembering.deserializer().deserialize("t", read);

    assertThat(remembering.serializer().serialize("t", pod)).isSameAs(read);
  }

  @Test
  void anEqualButDistinctRecordIsEncodedAfresh() {
    final PodState pod = Fixtures.podState().build();
    final byte[] first = remembering.serializer().serialize("t", pod);

    final byte[] other =
        remembering.serializer().serialize("t", PodState.newBuilder(pod).setUid("other").build());

    assertThat(other).isNotEqualTo(first);
    assertThat(remembering.deserializer().deserialize("t", other).getUid()).isEqualTo("other");
  }

  @Test
  void onlyTheLastFewRecordsAreRemembered() {
    final List<PodState> pods = new ArrayList<>();
    final List<byte[]> bytes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      final PodState pod = Fixtures.podState().setUid("pod-" + i).build();
      pods.add(pod);
      bytes.add(remembering.serializer().serialize("t", pod));
    }

    assertThat(remembering.serializer().serialize("t", pods.get(5))).isSameAs(bytes.get(5));
    assertThat(remembering.serializer().serialize("t", pods.get(0)))
        .isNotSameAs(bytes.get(0))
        .isEqualTo(bytes.get(0));
  }

  @Test
  void bytesOfAnOlderSchemaVersionAreNotWrittenAgain() throws IOException {
    final AvroSerde<GroupRuntime> runtimes =
        AvroSerde.forValues(GroupRuntime.class).rememberingRecentRecords();
    final GroupRuntime current = Fixtures.groupRuntime().build();
    final Schema v1 = SchemaHistory.of(GroupRuntime.class).versions().get(0);
    final byte[] v1Bytes = encodeAs(v1, current);

    final GroupRuntime read = runtimes.deserializer().deserialize("t", v1Bytes);
    final byte[] written = runtimes.serializer().serialize("t", read);

    assertThat(written)
        .isNotEqualTo(v1Bytes)
        .isEqualTo(AvroSerde.forValues(GroupRuntime.class).serializer().serialize("t", read));
  }

  /** {@code record} written with the older schema {@code writer}. */
  private static byte[] encodeAs(final Schema writer, final GroupRuntime record)
      throws IOException {
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(body, null);
    new SpecificDatumWriter<GroupRuntime>(GroupRuntime.getClassSchema()).write(record, encoder);
    encoder.flush();
    final GenericRecord old =
        new GenericDatumReader<GenericRecord>(GroupRuntime.getClassSchema(), writer)
            .read(null, DecoderFactory.get().binaryDecoder(body.toByteArray(), null));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(old, out);
    return out.toByteArray();
  }

  @Test
  void tombstonesStayNull() {
    assertThat(remembering.serializer().serialize("t", null)).isNull();
    assertThat(remembering.deserializer().deserialize("t", null)).isNull();
  }
}

package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.Fixtures;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The serializer writes exactly Avro's own single-object encoding, whatever came before. */
class AvroSerializerTest {
  private final AvroSerializer<PodState> pods =
      new AvroSerializer<>(PodState.class, RecordRole.VALUE);

  @Test
  void writesTheBytesOfAvrosOwnSingleObjectEncoder() throws IOException {
    final PodState pod = Fixtures.podState().build();
    final GroupRuntime runtime = Fixtures.groupRuntime().build();

    assertThat(pods.serialize("t", pod)).isEqualTo(avroEncoding(pod));
    assertThat(new AvroSerializer<>(GroupRuntime.class, RecordRole.VALUE).serialize("t", runtime))
        .isEqualTo(avroEncoding(runtime));
  }

  @Test
  void aSmallRecordAfterALargeOneCarriesNothingOfIt() throws IOException {
    final PodState large = Fixtures.podState().setRequests(manyResources(10_000)).build();
    final PodState small = Fixtures.podState().build();

    final byte[] largeBytes = pods.serialize("t", large);
    final byte[] smallBytes = pods.serialize("t", small);

    assertThat(largeBytes.length).isGreaterThan(64 * 1024);
    assertThat(largeBytes).isEqualTo(avroEncoding(large));
    assertThat(smallBytes).isEqualTo(avroEncoding(small));
  }

  @Test
  void threadsSharingOneSerializerEachGetTheirOwnRecordsBytes() throws Exception {
    final ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      final List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        final long cpu = 1_000L * (t + 1);
        results.add(
            threads.submit(
                () -> {
                  final PodState pod =
                      Fixtures.podState().setRequests(Fixtures.resources(cpu, 1)).build();
                  final byte[] expected = avroEncoding(pod);
                  boolean same = true;
                  for (int i = 0; i < 2_000; i++) {
                    same &= Arrays.equals(pods.serialize("t", pod), expected);
                  }
                  return same;
                }));
      }
      for (final Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aTombstoneIsWrittenAsNull() {
    assertThat(pods.serialize("t", null)).isNull();
  }

  private static Map<String, Long> manyResources(final int count) {
    final Map<String, Long> resources = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      resources.put("example.com/resource-" + i, (long) i);
    }
    return resources;
  }

  private static <T extends SpecificRecord> byte[] avroEncoding(final T record) throws IOException {
    final SpecificData model = SpecificData.getForClass(record.getClass());
    final BinaryMessageEncoder<T> encoder = new BinaryMessageEncoder<>(model, record.getSchema());
    final ByteBuffer buffer = encoder.encode(record);
    final byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }
}

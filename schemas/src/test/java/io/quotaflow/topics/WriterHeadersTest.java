package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.topics.WriterHeaders.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class WriterHeadersTest {

  @Test
  void aWriterReadsBackFromItsHeaders() {
    final Writer writer = new Writer(Optional.of("2f9e8c1a-0b6d-4c38-9d3e-5e1f7a2b4c6d"), 7);

    assertThat(WriterHeaders.read(writer.addTo(new RecordHeaders()))).contains(writer);
  }

  @Test
  void aWriterWithoutClusterUidReadsBackWithout() {
    final Writer writer = new Writer(Optional.empty(), 0);

    assertThat(WriterHeaders.read(writer.addTo(new RecordHeaders()))).contains(writer);
  }

  @Test
  void aRecordWithoutEpochHasNoWriter() {
    final RecordHeaders headers = new RecordHeaders();
    headers.add(WriterHeaders.CLUSTER_UID, "abc".getBytes(StandardCharsets.UTF_8));

    assertThat(WriterHeaders.read(headers)).isEmpty();
    assertThat(WriterHeaders.read(null)).isEmpty();
  }

  @Test
  void unreadableHeadersAreRefusedWithTheReason() {
    final RecordHeaders badEpoch = new RecordHeaders();
    badEpoch.add(WriterHeaders.EPOCH, "seven".getBytes(StandardCharsets.UTF_8));
    final RecordHeaders negative = new RecordHeaders();
    negative.add(WriterHeaders.EPOCH, "-1".getBytes(StandardCharsets.UTF_8));
    final RecordHeaders badUid = new RecordHeaders();
    badUid.add(WriterHeaders.EPOCH, "1".getBytes(StandardCharsets.UTF_8));
    badUid.add(WriterHeaders.CLUSTER_UID, "a b".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> WriterHeaders.read(badEpoch))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(WriterHeaders.EPOCH);
    assertThatThrownBy(() -> WriterHeaders.read(negative))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 0");
    assertThatThrownBy(() -> WriterHeaders.read(badUid))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a namespace UID");
  }
}

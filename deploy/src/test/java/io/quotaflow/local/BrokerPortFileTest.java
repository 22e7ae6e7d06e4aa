package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerPortFileTest {

  @TempDir Path dataDir;

  @Test
  void aKeptPortIsThePreviousOneOfTheNextStart() {
    assertThat(BrokerPortFile.in(dataDir).previous()).isEmpty();

    BrokerPortFile.in(dataDir).keep(42_579);

    assertThat(BrokerPortFile.in(dataDir).previous()).hasValue(42_579);
  }

  @Test
  void anUnreadablePortFileIsNoPreviousPort() throws Exception {
    Files.writeString(dataDir.resolve("kafka-port"), "not a port\n");
    assertThat(BrokerPortFile.in(dataDir).previous()).isEmpty();

    Files.writeString(dataDir.resolve("kafka-port"), "70000\n");
    assertThat(BrokerPortFile.in(dataDir).previous()).isEmpty();
  }
}

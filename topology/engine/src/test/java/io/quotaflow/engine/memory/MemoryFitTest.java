package io.quotaflow.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.config.HistorySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryFitTest {

  private static final long MIB = 1024L * 1024;
  private static final long GIB = 1024 * MIB;

  @Test
  void theManifestsEngineFitsItsTwoGibibytes() {
    // deploy/kubernetes/base: limit 2 GiB, MaxRAMPercentage=60, history in RocksDB at 192 MiB.
    final EngineConfig config =
        EngineConfig.builder()
            .set(EngineSettings.HISTORY_STORES.key(), "rocksdb")
            .set(EngineSettings.ROCKSDB_MEMORY.key(), "192Mi")
            .build();

    final MemoryFit fit = MemoryFit.of(config, (long) (2 * GIB * 0.6), OptionalLong.of(2 * GIB));

    assertThat(fit.fits()).isTrue();
    assertThat(fit.requireFits()).isSameAs(fit);
    assertThat(fit.historyCost()).isEmpty();
  }

  @Test
  void aHeapAndRocksDbBeyondTheLimitAreRefusedWithTheArithmetic() {
    final EngineConfig config =
        EngineConfig.builder()
            .set(EngineSettings.HISTORY_STORES.key(), "rocksdb")
            .set(EngineSettings.ROCKSDB_MEMORY.key(), "512Mi")
            .build();
    final MemoryFit fit = MemoryFit.of(config, 1536 * MIB, OptionalLong.of(2 * GIB));

    assertThat(fit.fits()).isFalse();
    assertThatThrownBy(fit::requireFits)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "heap 1,536 MiB + RocksDB 512 MiB (rocksdb.memory) + 256 MiB for the JVM's own memory"
                + " = 2,304 MiB > the limit of 2,048 MiB")
        .hasMessageContaining("or rocksdb.memory");
  }

  @Test
  void withoutRocksDbOnlyTheHeapAndTheAllowanceCount() {
    final MemoryFit fit =
        MemoryFit.of(EngineConfig.defaults(), 1800 * MIB, OptionalLong.of(2 * GIB));

    assertThat(fit.rocksDb()).isEmpty();
    assertThatThrownBy(fit::requireFits)
        .hasMessageContaining("heap 1,800 MiB + 256 MiB for the JVM's own memory = 2,056 MiB")
        .hasMessageNotContaining("rocksdb.memory");
  }

  @Test
  void withoutAContainerLimitEverythingFits() {
    assertThat(MemoryFit.of(EngineConfig.defaults(), 64 * GIB, OptionalLong.empty()).fits())
        .isTrue();
  }

  @Test
  void theHistoryOnTheHeapStatesWhatOneGroupCostsAndHowManyFit() {
    // The defaults: history on the heap, minutes for 26 hours (a day and two coarse steps) and
    // hours for 14 days; one standby.
    final EngineConfig config = EngineConfig.builder().set("num.standby.replicas", "1").build();

    final MemoryFit fit = MemoryFit.of(config, 1434 * MIB, OptionalLong.empty());

    assertThat(fit.historyWindowsPerGroup()).isEqualTo(26 * 60 + 14 * 24);
    assertThat(fit.historyBytesPerGroup()).isEqualTo(1_896L * 512 * 2);
    assertThat(fit.historyGroupsInHalfTheHeap()).hasValue(717 * MIB / (1_896L * 512 * 2));
    assertThat(fit.historyCost().orElseThrow())
        .contains("up to 1,896 windows of about 512 bytes on each of 2 copies (standbys)")
        .contains("half the heap (717 MiB) holds 387 such groups")
        .contains("history.stores=rocksdb");
  }

  @Test
  void theHistoryOffCostsNothing() {
    final EngineConfig config =
        EngineConfig.builder().set(HistorySettings.HISTORY_ENABLED.key(), "false").build();

    assertThat(MemoryFit.of(config, GIB, OptionalLong.empty()).historyCost()).isEmpty();
  }

  @Test
  void theContainerLimitIsReadFromCgroupV2ThenV1(@TempDir final Path dir) throws IOException {
    final Path v2 = dir.resolve("memory.max");
    final Path v1 = dir.resolve("memory.limit_in_bytes");
    Files.writeString(v1, "9223372036854771712\n");

    assertThat(ContainerMemory.limit(List.of(v2, v1))).isEmpty();
    Files.writeString(v2, "max\n");
    assertThat(ContainerMemory.limit(List.of(v2, v1))).isEmpty();
    Files.writeString(v2, "2147483648\n");
    assertThat(ContainerMemory.limit(List.of(v2, v1))).hasValue(2 * GIB);
    assertThat(ContainerMemory.limit(List.of(dir.resolve("absent")))).isEmpty();
  }

  @Test
  void aBudgetBelowSixteenMebibytesIsRefused() {
    assertThatThrownBy(
            () -> EngineConfig.builder().set(EngineSettings.ROCKSDB_MEMORY.key(), "1Mi").build())
        .hasMessageContaining("rocksdb.memory")
        .hasMessageContaining("at least 16Mi");
  }
}

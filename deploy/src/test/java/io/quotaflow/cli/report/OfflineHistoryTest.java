package io.quotaflow.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.TieredWindows;
import io.quotaflow.engine.history.HistoryChangelog;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.topics.TopicCatalogue;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.junit.jupiter.api.Test;

/**
 * {@code quotaflow report --bootstrap-servers} over an engine that keeps its history in two tiers
 * (issue 40): both changelogs are found by their steps, an old period is read from the coarse one,
 * a recent one from the fine one with the levels in force before it from the coarse one; an engine
 * of one changelog is read as before.
 */
class OfflineHistoryTest {

  private static final String ENGINE = "quotaflow-engine";
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Duration HOUR = Duration.ofHours(1);
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  // Three days ago: past the fine tier's retention.
  private static final Instant OLD = Instant.parse("2026-11-26T10:00:00Z");
  private static final GroupId TEAM_A = new GroupId("east", "team-a");
  private static final GroupId TEAM_B = new GroupId("east", "team-b");
  private static final String FINE = HistoryChangelog.topic(ENGINE, MINUTE);
  private static final String COARSE = HistoryChangelog.topic(ENGINE, HOUR);

  @Test
  void bothTiersAreFoundAndEachAnswersItsPeriods() {
    final HistoryWindow first = HistoryWindow.opened(OLD, MINUTE, GroupLevels.NONE, cpu(4_000));
    final HistoryWindow second =
        HistoryWindow.opened(OLD.plus(Duration.ofMinutes(30)), MINUTE, cpu(4_000), cpu(6_000));
    final HistoryWindow hour =
        HistoryWindow.opened(OLD, HOUR, GroupLevels.NONE, cpu(4_000))
            .changed(OLD.plus(Duration.ofMinutes(30)), cpu(6_000));
    final MockConsumer<byte[], byte[]> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    final List<Runnable> records = new ArrayList<>();
    // team-b changed lately: the fine tier holds east, but no change of team-a.
    final HistoryWindow teamB =
        HistoryWindow.opened(NOW.minus(Duration.ofHours(5)), MINUTE, GroupLevels.NONE, cpu(1_000));
    topic(consumer, COARSE, HOUR, List.of(TEAM_A), List.of(hour), records);
    topic(
        consumer,
        FINE,
        MINUTE,
        List.of(TEAM_A, TEAM_A, TEAM_B),
        List.of(first, second, teamB),
        records);
    records.forEach(consumer::schedulePollTask);
    final OfflineHistory history = new OfflineHistory(consumer, Duration.ofSeconds(5));

    final OfflineHistory.Changelogs changelogs =
        history.changelogs(ENGINE, Optional.empty(), HOUR, Duration.ofDays(1), Duration.ofDays(14));

    assertThat(changelogs.fine()).isEqualTo(FINE);
    assertThat(changelogs.coarse()).contains(COARSE);
    assertThat(changelogs.tiers())
        .contains(new HistoryTiers(MINUTE, Duration.ofDays(1), HOUR, Duration.ofDays(14)));
    final var east =
        history
            .read(changelogs, NOW, Duration.ofDays(14), TopicCatalogue.withDefaultPrefix())
            .get("east")
            .windows();
    assertThat(east).isInstanceOf(TieredWindows.class);
    // The old hour, from the coarse tier: 4 cores for 30 minutes, then 6.
    assertThat(used(east.totals(List.of("team-a"), OLD, OLD.plus(HOUR), NOW)))
        .isEqualTo(BigInteger.valueOf(4_000L * 1_800_000 + 6_000L * 1_800_000));
    // A recent minute, from the fine tier, which keeps no change of team-a: 6 cores in force.
    final Instant recent = NOW.minus(Duration.ofHours(3));
    assertThat(used(east.totals(List.of("team-a"), recent, recent.plus(MINUTE), NOW)))
        .isEqualTo(BigInteger.valueOf(6_000L * 60_000));
  }

  @Test
  void anEngineWithOneChangelogIsReadAsBefore() {
    final MockConsumer<byte[], byte[]> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    final List<Runnable> records = new ArrayList<>();
    topic(
        consumer,
        FINE,
        MINUTE,
        List.of(TEAM_A),
        List.of(HistoryWindow.opened(NOW.minus(HOUR), MINUTE, GroupLevels.NONE, cpu(4_000))),
        records);
    records.forEach(consumer::schedulePollTask);
    final OfflineHistory history = new OfflineHistory(consumer, Duration.ofSeconds(5));

    final OfflineHistory.Changelogs changelogs =
        history.changelogs(ENGINE, Optional.empty(), HOUR, Duration.ofDays(1), Duration.ofDays(14));

    assertThat(changelogs.fine()).isEqualTo(FINE);
    assertThat(changelogs.tiers()).isEmpty();
    final var east =
        history
            .read(changelogs, NOW, Duration.ofDays(14), TopicCatalogue.withDefaultPrefix())
            .get("east")
            .windows();
    assertThat(east).isInstanceOf(KeptWindows.class);
    assertThat(used(east.totals(List.of("team-a"), NOW.minus(HOUR), NOW, NOW)))
        .isEqualTo(BigInteger.valueOf(4_000L * 3_600_000));
  }

  private static BigInteger used(Map<String, io.quotaflow.history.HistoryStep> totals) {
    return totals.get("team-a").integrals().get(ResourceList.CPU, HistoryMetric.USED);
  }

  /** {@code topic} with {@code windows} of team-a, added to the consumer once it is assigned. */
  private static void topic(
      MockConsumer<byte[], byte[]> consumer,
      String topic,
      Duration step,
      List<GroupId> groups,
      List<HistoryWindow> windows,
      List<Runnable> records) {
    final TopicPartition partition = new TopicPartition(topic, 0);
    consumer.updatePartitions(
        topic, List.of(new PartitionInfo(topic, 0, Node.noNode(), new Node[0], new Node[0])));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, (long) windows.size()));
    final AvroSerde<GroupHistoryWindow> values = AvroSerde.forValues(GroupHistoryWindow.class);
    for (int offset = 0; offset < windows.size(); offset++) {
      final HistoryWindow window = windows.get(offset);
      final byte[] group = GroupId.serde().serializer().serialize(topic, groups.get(offset));
      final long at = offset;
      records.add(
          () ->
              consumer.addRecord(
                  new ConsumerRecord<>(
                      topic,
                      0,
                      at,
                      WindowKeySchema.toStoreKeyBinary(
                              org.apache.kafka.common.utils.Bytes.wrap(group),
                              window.start().toEpochMilli(),
                              0)
                          .get(),
                      values.serializer().serialize(topic, HistoryRecords.record(window)))));
    }
  }

  private static GroupLevels cpu(long used) {
    final ResourceList amount = ResourceList.of(ResourceList.CPU, used);
    return new GroupLevels(amount, amount, amount, ResourceList.of(ResourceList.CPU, 4_000));
  }
}

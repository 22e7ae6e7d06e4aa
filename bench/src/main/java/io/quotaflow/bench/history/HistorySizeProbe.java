package io.quotaflow.bench.history;

import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state size of the history (issue 30): the bytes one kept window takes as the engine writes it
 * (the key as the window store keys it, with its 8-byte window start, and the Avro value), for
 * groups of 2 and 4 resources with realistic amounts, then what 10,000 groups keep over 14 days at
 * several rates of change. A window is kept only when its group changed in it, so the rate of
 * change, not the number of groups, sets the size. Then the same in two tiers (issue 40, the
 * defaults): one-minute windows for the fine tier's store (a day and two coarse steps), one-hour
 * windows for the whole retention.
 *
 * <p>Usage: {@code java -cp ... io.quotaflow.bench.history.HistorySizeProbe [groups] [days]}.
 */
public final class HistorySizeProbe {

  private static final Duration STEP = Duration.ofMinutes(1);
  private static final Duration COARSE_STEP = Duration.ofHours(1);
  // The fine tier's store keeps history.fine.retention and two coarse steps
  // (HistoryTiers.fineKept).
  private static final Duration FINE_KEPT = Duration.ofDays(1).plus(COARSE_STEP.multipliedBy(2));

  private HistorySizeProbe() {}

  public static void main(String[] args) {
    final int groups = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    final int days = args.length > 1 ? Integer.parseInt(args[1]) : 14;
    final AvroSerde<GroupHistoryWindow> values = AvroSerde.forValues(GroupHistoryWindow.class);
    final GroupId key = new GroupId("cluster-east-1", "department-07-team-0421");
    final int keyBytes = GroupId.serde().serializer().serialize("history", key).length + 8;
    System.out.printf("key: %d bytes (cluster and group names, and the window start)%n", keyBytes);
    final Map<String, Integer> perWindow = new TreeMap<>();
    perWindow.put("2 resources (cpu, memory)", valueBytes(values, twoResources()));
    perWindow.put("4 resources (cpu, memory, GPUs, pods)", valueBytes(values, fourResources()));
    perWindow.forEach(
        (shape, bytes) ->
            System.out.printf(
                "window of a group with %s, changed twice in it, one eviction: %d bytes value,"
                    + " %d with its key%n",
                shape, bytes, bytes + keyBytes));
    final long minutes = Duration.ofDays(days).toMinutes();
    System.out.printf(
        "%n%,d groups over %d days (%,d one-minute windows each at most):%n",
        groups, days, minutes);
    for (final int changedPerHour : new int[] {60, 6, 1}) {
      final long windows = (long) groups * days * 24 * changedPerHour;
      perWindow.forEach(
          (shape, bytes) ->
              System.out.printf(
                  "  changed in %2d windows an hour, %s: %,d windows, %.1f GiB%n",
                  changedPerHour,
                  shape,
                  windows,
                  windows * (double) (bytes + keyBytes) / (1L << 30)));
    }
    tiered(groups, days, keyBytes, values);
  }

  private static int valueBytes(AvroSerde<GroupHistoryWindow> serde, GroupLevels[] levels) {
    return valueBytes(serde, levels, STEP);
  }

  // A window of `step` with two changes and an eviction: the coarse one's integrals span the hour.
  private static int valueBytes(
      AvroSerde<GroupHistoryWindow> serde, GroupLevels[] levels, Duration step) {
    final Instant start = Instant.parse("2026-11-27T10:00:00Z");
    final long late = step.toSeconds() - 20;
    final HistoryWindow window =
        HistoryWindow.opened(start.plusSeconds(10), step, levels[0], levels[1])
            .changed(start.plusSeconds(late), levels[0])
            .withEviction("reclaimed-after-delay");
    return serde.serializer().serialize("history", HistoryRecords.record(window)).length;
  }

  /** The worst case and the same rates in two tiers: fine windows for a day, hourly beyond. */
  private static void tiered(
      int groups, int days, int keyBytes, AvroSerde<GroupHistoryWindow> values) {
    final Map<String, int[]> perWindow = new TreeMap<>();
    perWindow.put(
        "2 resources",
        new int[] {
          valueBytes(values, twoResources()), valueBytes(values, twoResources(), COARSE_STEP)
        });
    perWindow.put(
        "4 resources",
        new int[] {
          valueBytes(values, fourResources()), valueBytes(values, fourResources(), COARSE_STEP)
        });
    perWindow.forEach(
        (shape, bytes) ->
            System.out.printf(
                "%ntiers, %s: fine window %d bytes with its key, coarse window %d%n",
                shape, bytes[0] + keyBytes, bytes[1] + keyBytes));
    final long fineHours = FINE_KEPT.toHours();
    final long coarseWindows = Duration.ofDays(days).dividedBy(COARSE_STEP);
    for (final int changedPerHour : new int[] {60, 6, 1}) {
      final long fine = (long) groups * fineHours * changedPerHour;
      final long coarse = (long) groups * coarseWindows;
      perWindow.forEach(
          (shape, bytes) ->
              System.out.printf(
                  "  tiers, changed in %2d windows an hour, %s: %,d fine + %,d coarse windows,"
                      + " %.2f GiB%n",
                  changedPerHour,
                  shape,
                  fine,
                  coarse,
                  (fine * (double) (bytes[0] + keyBytes) + coarse * (double) (bytes[1] + keyBytes))
                      / (1L << 30)));
    }
  }

  private static GroupLevels[] twoResources() {
    return new GroupLevels[] {
      levels(ResourceList.of("cpu", 48_000, "memory", 192L << 30), 32_000, 128L << 30),
      levels(ResourceList.of("cpu", 64_500, "memory", 260L << 30), 32_000, 128L << 30)
    };
  }

  private static GroupLevels[] fourResources() {
    final Map<String, Long> before = new TreeMap<>();
    before.put("cpu", 48_000L);
    before.put("memory", 192L << 30);
    before.put("nvidia.com/gpu", 8L);
    before.put("pods", 40L);
    final Map<String, Long> after = new TreeMap<>(before);
    after.put("nvidia.com/gpu", 12L);
    after.put("pods", 44L);
    final ResourceList min =
        ResourceList.of(
            Map.of("cpu", 32_000L, "memory", 128L << 30, "nvidia.com/gpu", 8L, "pods", 100L));
    return new GroupLevels[] {
      new GroupLevels(
          ResourceList.of(before), ResourceList.of(before), ResourceList.of(before), min),
      new GroupLevels(ResourceList.of(after), ResourceList.of(after), ResourceList.of(after), min)
    };
  }

  private static GroupLevels levels(ResourceList used, long minCpu, long minMemory) {
    return new GroupLevels(used, used, used, ResourceList.of("cpu", minCpu, "memory", minMemory));
  }
}

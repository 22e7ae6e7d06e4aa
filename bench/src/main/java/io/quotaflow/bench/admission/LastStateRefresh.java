package io.quotaflow.bench.admission;

import io.quotaflow.admission.state.ClusterSnapshot;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Issue 40.4: what one refresh of the last state costs (time and bytes allocated on the refreshing
 * thread), for a cluster of {@code --groups} groups and {@code --pods} pods of which {@code
 * --changed} groups change between refreshes (a pod added or removed, its class or the group's
 * used). Three figures per refresh, taken in the same run over the same state: reading the view
 * alone, a whole {@link ClusterSnapshot#capture(ClusterView, Instant)} (before issue 40.4), and a
 * capture that reuses the previous snapshot (after). Each read of the view returns new objects, as
 * a read of the engine's stores deserializes new ones; the engine's Avro decoding and RocksDB reads
 * are not in these figures, so the read costs more in production than here, the same with and
 * without reuse. Every reusing capture is checked equal to the whole one.
 *
 * <p>With {@code --stores engine} the view reads the engine's runtime and pod-assignments records,
 * serialized with its serdes, through its {@code RuntimeQueries} ({@link StoredEngineCluster}): the
 * read then includes the Avro decoding a refresh pays in production.
 *
 * <p>Usage: {@code LastStateRefresh [--groups 10000] [--pods 100000] [--changed 10] [--warmup 20]
 * [--refreshes 50] [--stores fresh|engine]}.
 */
public final class LastStateRefresh {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private LastStateRefresh() {}

  public static void main(String[] args) {
    int groups = 10_000;
    int pods = 100_000;
    int changed = 10;
    int warmup = 20;
    int refreshes = 50;
    boolean engineStores = false;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--stores")) {
        engineStores = args[i + 1].equals("engine");
        continue;
      }
      final int value = Integer.parseInt(args[i + 1]);
      switch (args[i]) {
        case "--groups" -> groups = value;
        case "--pods" -> pods = value;
        case "--changed" -> changed = value;
        case "--warmup" -> warmup = value;
        case "--refreshes" -> refreshes = value;
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    final ChangingCluster cluster =
        engineStores
            ? new StoredEngineCluster(groups, pods, new Random(40_4))
            : new StoredCluster(groups, pods, new Random(40_4));
    final long[][] read = new long[2][refreshes];
    final long[][] whole = new long[2][refreshes];
    final long[][] reusing = new long[2][refreshes];
    ClusterSnapshot previous = ClusterSnapshot.capture(cluster, Instant.EPOCH);
    long newLists = 0;
    long newStatuses = 0;
    for (int i = -warmup; i < refreshes; i++) {
      cluster.change(changed);
      final Instant asOf = Instant.ofEpochSecond(i + warmup + 1L);
      final long[] readCost = measure(() -> readAll(cluster));
      final ClusterSnapshot[] out = new ClusterSnapshot[2];
      final ClusterSnapshot before = previous;
      final Runnable wholeCapture = () -> out[0] = ClusterSnapshot.capture(cluster, asOf);
      final Runnable reusingCapture =
          () -> out[1] = ClusterSnapshot.capture(cluster, asOf, Optional.of(before));
      // Alternated, so that neither always pays for the garbage the other left.
      final long[] wholeCost;
      final long[] reuseCost;
      if ((i & 1) == 0) {
        wholeCost = measure(wholeCapture);
        reuseCost = measure(reusingCapture);
      } else {
        reuseCost = measure(reusingCapture);
        wholeCost = measure(wholeCapture);
      }
      if (!out[1].sameState(out[0])) {
        throw new IllegalStateException("refresh " + i + ": the reusing copy differs");
      }
      if (i >= 0) {
        for (final GroupStatus status : out[1].groups()) {
          final List<PodAssignment> kept = out[1].podsOf(status.name());
          newLists += !kept.isEmpty() && kept != before.podsOf(status.name()) ? 1 : 0;
          newStatuses += before.group(status.name()).orElse(null) != status ? 1 : 0;
        }
      }
      previous = out[1];
      if (i >= 0) {
        for (int k = 0; k < 2; k++) {
          read[k][i] = readCost[k];
          whole[k][i] = wholeCost[k];
          reusing[k][i] = reuseCost[k];
        }
      }
    }
    System.out.printf(
        "last state refresh over %s: %,d groups, %,d pods, %,d groups changed per refresh,"
            + " %d refreshes after %d warm-up (median, p90)%n",
        engineStores ? "the engine's serialized stores" : "fresh objects",
        groups,
        pods,
        changed,
        refreshes,
        warmup);
    print("read of the view alone", read);
    print("whole capture (before)", whole);
    print("reusing capture (after)", reusing);
    System.out.printf(
        "  new objects kept per refresh after: %.1f pod lists and %.1f statuses of %,d groups"
            + " (before: all of them)%n",
        (double) newLists / refreshes, (double) newStatuses / refreshes, groups);
    cluster.change(changed);
    final Instant last = Instant.ofEpochSecond(warmup + refreshes + 1L);
    final long held = heapAfterGc();
    ClusterSnapshot kept = ClusterSnapshot.capture(cluster, last);
    final long keptWhole = heapAfterGc() - held;
    kept = null;
    final long heldAgain = heapAfterGc();
    kept = ClusterSnapshot.capture(cluster, last, Optional.of(previous));
    final long keptReusing = heapAfterGc() - heldAgain;
    java.lang.ref.Reference.reachabilityFence(kept);
    java.lang.ref.Reference.reachabilityFence(previous);
    System.out.printf(
        "  heap a new snapshot keeps beside the previous one: before %.1f MB, after %.2f MB%n",
        keptWhole / 1e6, keptReusing / 1e6);
    System.out.printf(
        "after/before: time %.2f, bytes %.2f%n",
        (double) median(reusing[0]) / median(whole[0]),
        (double) median(reusing[1]) / median(whole[1]));
  }

  /** The heap in use after a full collection. */
  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void print(String what, long[][] cost) {
    System.out.printf(
        "  %-26s %8.2f ms (p90 %8.2f)   %10.1f MB allocated (p90 %8.1f)%n",
        what, median(cost[0]) / 1e6, p90(cost[0]) / 1e6, median(cost[1]) / 1e6, p90(cost[1]) / 1e6);
  }

  private static long median(long[] values) {
    final long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static long p90(long[] values) {
    final long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.9))];
  }

  /** Nanoseconds and bytes allocated on this thread by {@code action}. */
  private static long[] measure(Runnable action) {
    final long thread = Thread.currentThread().getId();
    final long bytes = THREADS.getThreadAllocatedBytes(thread);
    final long start = System.nanoTime();
    action.run();
    final long nanos = System.nanoTime() - start;
    return new long[] {nanos, THREADS.getThreadAllocatedBytes(thread) - bytes};
  }

  /** Everything a capture reads, read and dropped. */
  private static int readAll(ClusterView view) {
    int seen = 0;
    for (final GroupStatus status : view.groups()) {
      seen += view.podsOf(status.name()).size();
      seen += view.ownRequest(status.name()).isPresent() ? 1 : 0;
    }
    return seen + view.quotas().size();
  }

  /** A cluster whose state the benchmark changes between refreshes. */
  interface ChangingCluster extends ClusterView {
    /** {@code groups} random groups change: a pod added, removed or reclassed. */
    void change(int groups);
  }

  /**
   * One cluster as the engine's stores hold it: flat groups under the root, pods spread over them.
   * Every read builds new objects, as deserializing a store's records does; the specifications are
   * one cached list, as {@code StreamsClusterState} keeps them.
   */
  private static final class StoredCluster implements ChangingCluster {
    private final Random random;
    private final String[] names;
    private final long[] used;
    private final List<List<String[]>> podsOf = new ArrayList<>();
    private final List<QuotaGroup> quotas;
    private int nextPod;

    StoredCluster(int groups, int pods, Random random) {
      this.random = random;
      names = new String[groups];
      used = new long[groups];
      final List<QuotaGroup> specs = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        names[g] = "team-" + g;
        podsOf.add(new ArrayList<>());
        specs.add(
            QuotaGroup.builder(names[g])
                .min(ResourceList.of(ResourceList.CPU, 1_000, ResourceList.MEMORY, 1L << 30))
                .max(ResourceList.of(ResourceList.CPU, 4_000, ResourceList.MEMORY, 4L << 30))
                .build());
      }
      quotas = List.copyOf(specs);
      for (int p = 0; p < pods; p++) {
        addPod(p % groups);
      }
    }

    private void addPod(int group) {
      final int pod = nextPod++;
      podsOf.get(group).add(new String[] {"ns-" + group, "pod-" + pod, pod % 3 == 0 ? "O" : "I"});
      used[group] += 100;
    }

    @Override
    public void change(int groups) {
      for (int i = 0; i < groups; i++) {
        final int group = random.nextInt(names.length);
        final List<String[]> pods = podsOf.get(group);
        switch (random.nextInt(3)) {
          case 0 -> addPod(group);
          case 1 -> {
            if (!pods.isEmpty()) {
              pods.remove(random.nextInt(pods.size()));
              used[group] -= 100;
            }
          }
          default -> {
            if (!pods.isEmpty()) {
              final String[] pod = pods.get(random.nextInt(pods.size()));
              pod[2] = "I".equals(pod[2]) ? "O" : "I";
            }
          }
        }
      }
    }

    private int index(String name) {
      return Integer.parseInt(name.substring("team-".length()));
    }

    private GroupStatus status(int g) {
      final ResourceList min =
          ResourceList.of(ResourceList.CPU, 1_000, ResourceList.MEMORY, 1L << 30);
      final ResourceList max =
          ResourceList.of(ResourceList.CPU, 4_000, ResourceList.MEMORY, 4L << 30);
      final ResourceList use = ResourceList.of(ResourceList.CPU, used[g], ResourceList.MEMORY, 0);
      return new GroupStatus(
          new String(names[g]),
          SpecialGroups.ROOT,
          false,
          true,
          Optional.empty(),
          min,
          min,
          max,
          ResourceList.of(ResourceList.CPU, 1_000),
          use,
          use,
          use,
          ResourceList.empty(),
          ResourceList.empty(),
          max,
          ResourceList.empty(),
          ResourceList.empty());
    }

    @Override
    public Optional<GroupStatus> group(String name) {
      return Optional.of(status(index(name)));
    }

    @Override
    public List<GroupStatus> groups() {
      final List<GroupStatus> all = new ArrayList<>(names.length);
      for (int g = 0; g < names.length; g++) {
        all.add(status(g));
      }
      return all;
    }

    @Override
    public List<QuotaGroup> quotas() {
      return quotas;
    }

    @Override
    public Optional<ResourceList> ownRequest(String group) {
      return Optional.of(ResourceList.of(ResourceList.CPU, used[index(group)]));
    }

    @Override
    public List<PodAssignment> podsOf(String group) {
      final List<PodAssignment> pods = new ArrayList<>();
      for (final String[] pod : podsOf.get(index(group))) {
        pods.add(
            new PodAssignment(
                new PodRef(new String(pod[0]), new String(pod[1])),
                group,
                Optional.of("I".equals(pod[2]) ? PodClass.IN_QUOTA : PodClass.OVER_QUOTA),
                Optional.empty()));
      }
      return pods;
    }
  }
}

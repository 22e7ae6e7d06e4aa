package io.quotaflow.bench.reservation;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.ClusterReservations;
import io.quotaflow.reservation.NodeLoad;
import io.quotaflow.reservation.ReservationInput;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.QuotaOptions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The reservation benchmarks' cluster, generated from a fixed seed: 1,000 nodes of four types (400
 * of 16 cores and 64Gi, 300 of 32 and 128Gi, 200 of 64 and 256Gi, 100 GPU nodes of 48 cores, 384Gi
 * and 8 GPUs), 10 pods a node (1 to 4 cores, 4Gi a core) of 60 groups, and 50 reserving groups: 35
 * of 40 to 400 cores with 4Gi a core, 10 of 4 to 40 GPUs with 8 cores a GPU, 5 of 1 to 3 % of the
 * nodes and of the cluster's cores. Together they ask about 30 % of the cluster, under the default
 * 50 % cap.
 *
 * <p>{@link Shape#TYPED}: the four types exactly, as a fleet of identical machines reports them.
 * {@link Shape#VARIED}: every node's allocatable a little less (up to 200 milli-cores and 512Mi
 * that the kubelet reserves), so no two nodes are alike.
 */
public final class ReservationWorkload {

  /** How alike the nodes are. */
  public enum Shape {
    TYPED,
    VARIED
  }

  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;
  private static final String GPU = "nvidia.com/gpu";

  /** The cluster's nodes. */
  public final List<QuotaNode> nodes = new ArrayList<>();

  /** The reserving groups, as the planner takes them from scratch (no lock held). */
  public final List<ReservationInput> fresh = new ArrayList<>();

  /** What the pods bound to the nodes request. */
  public final NodeLoad load;

  /** The pods, for callers that feed a {@link ClusterReservations}. */
  public final List<QuotaPod> pods = new ArrayList<>();

  /** The groups, for callers that feed a {@link ClusterReservations}. */
  public final List<QuotaGroup> groups = new ArrayList<>();

  /** The quota options (the default 50 % cap). */
  public final QuotaOptions options = QuotaOptions.DEFAULTS;

  /** Generates the workload of {@code shape}. */
  public ReservationWorkload(final Shape shape) {
    final SplittableRandom random = new SplittableRandom(14);
    int index = 0;
    for (final long[] type :
        new long[][] {{400, 16, 64, 0}, {300, 32, 128, 0}, {200, 64, 256, 0}, {100, 48, 384, 8}}) {
      for (int i = 0; i < type[0]; i++) {
        final Map<String, Long> allocatable = new TreeMap<>();
        final long cpuShave = shape == Shape.VARIED ? random.nextLong(1, 201) : 0;
        final long memoryShave = shape == Shape.VARIED ? random.nextLong(1, 513) * MIB : 0;
        allocatable.put("cpu", type[1] * 1_000 - cpuShave);
        allocatable.put("memory", type[2] * GIB - memoryShave);
        allocatable.put("pods", 110L);
        if (type[3] > 0) {
          allocatable.put(GPU, type[3]);
        }
        nodes.add(
            QuotaNode.healthy(String.format("node-%04d", index++), ResourceList.of(allocatable)));
      }
    }
    for (int g = 0; g < 50; g++) {
      final ReservationSpec spec;
      if (g < 35) {
        final long cores = random.nextLong(40, 401);
        spec =
            ReservationSpec.of(
                g % 3 == 0 ? ReservationPolicy.GUARANTEED : ReservationPolicy.BEST_EFFORT,
                ResourceList.of("cpu", cores * 1_000, "memory", cores * 4 * GIB));
      } else if (g < 45) {
        final long gpus = random.nextLong(4, 41);
        spec =
            ReservationSpec.of(
                ReservationPolicy.GUARANTEED, ResourceList.of(GPU, gpus, "cpu", gpus * 8_000));
      } else {
        spec =
            new ReservationSpec(
                ReservationPolicy.BEST_EFFORT,
                Optional.empty(),
                Optional.of(
                    new ReservationPercentage(
                        BigDecimal.valueOf(random.nextInt(1, 4), 2), List.of("cpu"))),
                List.of());
      }
      final QuotaGroup group =
          QuotaGroup.builder(String.format("team-%02d", g)).reservation(spec).build();
      groups.add(group);
      fresh.add(new ReservationInput(group, Optional.empty(), g, List.of()));
    }
    for (int g = 50; g < 60; g++) {
      groups.add(QuotaGroup.builder(String.format("team-%02d", g)).build());
    }
    final Map<String, ResourceList> requested = new HashMap<>();
    final Map<String, Map<String, ResourceList>> used = new HashMap<>();
    for (final QuotaNode node : nodes) {
      ResourceList onNode = ResourceList.empty();
      for (int p = 0; p < 10; p++) {
        final long cores = random.nextLong(1, 5);
        final ResourceList request =
            ResourceList.of("cpu", cores * 1_000, "memory", cores * 4 * GIB);
        final String group = String.format("team-%02d", random.nextInt(60));
        pods.add(
            QuotaPod.builder("ns", node.name() + "-" + p)
                .quotaName(group)
                .request(request)
                .nodeName(node.name())
                .phase(PodPhase.RUNNING)
                .build());
        onNode = onNode.plus(request);
        used.computeIfAbsent(group, k -> new HashMap<>())
            .merge(node.name(), request, ResourceList::plus);
      }
      requested.put(node.name(), onNode);
    }
    load = new NodeLoad(requested, used);
  }

  /** The same reservations, each holding the nodes {@code statuses} gave it. */
  public List<ReservationInput> holding(final Map<String, ReservationStatus> statuses) {
    final List<ReservationInput> held = new ArrayList<>();
    for (final ReservationInput input : fresh) {
      final ReservationStatus status = statuses.get(input.name());
      held.add(
          new ReservationInput(
              input.group(),
              Optional.empty(),
              input.requestedAt(),
              status == null ? List.of() : status.nodes()));
    }
    return held;
  }
}

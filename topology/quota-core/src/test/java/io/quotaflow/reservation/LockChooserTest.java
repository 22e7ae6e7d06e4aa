package io.quotaflow.reservation;

import static io.quotaflow.tree.Fixtures.GPU;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The choice of nodes for one reservation, criterion by criterion. */
class LockChooserTest {

  private static final long GIB = 1L << 30;

  static ReservationCandidate node(String name, ResourceList allocatable) {
    return new ReservationCandidate(name, allocatable, allocatable, ResourceList.empty(), false);
  }

  static ReservationCandidate usedBy(String name, ResourceList allocatable, ResourceList used) {
    return new ReservationCandidate(name, allocatable, allocatable.minus(used), used, false);
  }

  static ReservationCandidate withIdle(String name, ResourceList allocatable, ResourceList idle) {
    return new ReservationCandidate(name, allocatable, idle, ResourceList.empty(), false);
  }

  static LockRequest request(ResourceList target, List<ReservationCandidate> nodes) {
    return request(new ReservationTarget(target, 0), nodes, ResourceList.empty());
  }

  static LockRequest request(
      ReservationTarget target, List<ReservationCandidate> nodes, ResourceList cap) {
    ResourceList total = ResourceList.empty();
    for (final ReservationCandidate node : nodes) {
      total = total.plus(node.allocatable());
    }
    return new LockRequest(target, nodes, cap, total);
  }

  static List<String> chosen(LockRequest request) {
    return LockChooser.choose(request).orElseThrow().nodes();
  }

  @Test
  void choosesTheSetWithTheLeastExcessOverTheTarget() {
    final List<ReservationCandidate> nodes =
        List.of(
            node("big", cpu(16_000)),
            node("m-1", cpu(8_000)),
            node("m-2", cpu(8_000)),
            node("s-1", cpu(4_000)));

    assertThat(chosen(request(cpu(12_000), nodes))).containsExactly("m-1", "s-1");
  }

  @Test
  void coversEveryDimensionTheReservationNames() {
    final List<ReservationCandidate> nodes =
        List.of(
            node("cpu-heavy", cpuMemory(32_000, 16 * GIB)),
            node("memory-heavy", cpuMemory(4_000, 128 * GIB)),
            node("balanced", cpuMemory(16_000, 64 * GIB)));

    final List<String> lock = chosen(request(cpuMemory(20_000, 100 * GIB), nodes));

    assertThat(lock).containsExactly("balanced", "memory-heavy");
  }

  @Test
  void prefersNodesTheGroupAlreadyUsesAmongEquallyTightSets() {
    final List<ReservationCandidate> nodes =
        List.of(
            node("a", cpu(8_000)),
            usedBy("b", cpu(8_000), cpu(2_000)),
            node("c", cpu(8_000)),
            usedBy("d", cpu(8_000), cpu(6_000)));

    assertThat(chosen(request(cpu(16_000), nodes))).containsExactly("b", "d");
  }

  @Test
  void prefersFewerNodesWhenExcessAndUseTie() {
    final List<ReservationCandidate> nodes =
        List.of(node("half-1", cpu(4_000)), node("half-2", cpu(4_000)), node("whole", cpu(8_000)));

    assertThat(chosen(request(cpu(8_000), nodes))).containsExactly("whole");
  }

  @Test
  void prefersTheMostIdleNodesWhenEverythingElseTies() {
    final List<ReservationCandidate> nodes =
        List.of(
            withIdle("busy", cpu(8_000), cpu(1_000)),
            withIdle("idle", cpu(8_000), cpu(8_000)),
            withIdle("half", cpu(8_000), cpu(4_000)));

    assertThat(chosen(request(cpu(16_000), nodes))).containsExactly("half", "idle");
  }

  @Test
  void prefersTheNodesItLocksAlreadyWhenEverythingElseTies() {
    final List<ReservationCandidate> nodes =
        List.of(
            node("a", cpu(8_000)),
            new ReservationCandidate("b", cpu(8_000), cpu(8_000), ResourceList.empty(), true),
            node("c", cpu(8_000)));

    assertThat(chosen(request(cpu(8_000), nodes))).containsExactly("b");
  }

  @Test
  void holdsAtLeastTheNodeCountOfAPercentage() {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      nodes.add(node("node-" + i, cpu(8_000)));
    }

    final List<String> lock =
        chosen(request(new ReservationTarget(cpu(1_000), 3), nodes, ResourceList.empty()));

    assertThat(lock).containsExactly("node-1", "node-2", "node-3");
  }

  @Test
  void doesNotLockAGpuNodeForACpuReservationWhenCpuNodesCoverItAsTightly() {
    final List<ReservationCandidate> nodes =
        List.of(
            node("gpu-node", res("cpu", 8_000, GPU, 8)),
            node("s-1", cpu(4_000)),
            node("s-2", cpu(4_000)));

    // One node would beat two, but the GPU node's eight GPUs count as excess.
    assertThat(chosen(request(cpu(8_000), nodes))).containsExactly("s-1", "s-2");
  }

  @Test
  void staysWithinWhatTheCapLeavesInEveryDimensionPodSlotsIncluded() {
    final List<ReservationCandidate> nodes =
        List.of(
            withIdle("few-slots", res("cpu", 8_000, "pods", 10), ResourceList.empty()),
            withIdle("many-slots", res("cpu", 8_000, "pods", 110), cpu(8_000)));
    final ReservationTarget target = new ReservationTarget(cpu(8_000), 0);

    // Pod slots rank nothing: the idle node wins; the cap on pod slots rules it out.
    assertThat(chosen(request(target, nodes, ResourceList.empty()))).containsExactly("many-slots");
    assertThat(chosen(request(target, nodes, res("cpu", 100_000, "pods", 50))))
        .containsExactly("few-slots");
    assertThat(LockChooser.choose(request(target, nodes, res("cpu", 7_999, "pods", 200))))
        .isEmpty();
  }

  @Test
  void choosesNothingWhenTheCandidatesCannotCover() {
    final List<ReservationCandidate> nodes = List.of(node("a", cpu(4_000)), node("b", cpu(4_000)));

    assertThat(LockChooser.choose(request(cpu(8_001), nodes))).isEmpty();
    assertThat(
            LockChooser.choose(
                request(new ReservationTarget(cpu(1), 3), nodes, ResourceList.empty())))
        .isEmpty();
  }

  @Test
  void anEmptyTargetLocksNoNode() {
    final Optional<LockChoice> choice =
        LockChooser.choose(request(ResourceList.empty(), List.of(node("a", cpu(4_000)))));

    assertThat(choice).isPresent();
    assertThat(choice.get().nodes()).isEmpty();
  }

  @Test
  void aThousandIdenticalNodesAreOneShapeForTheExactSearch() {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      nodes.add(node(String.format("node-%04d", i), cpuMemory(16_000, 64 * GIB)));
    }

    final LockChoice choice =
        LockChooser.choose(request(cpuMemory(100_000, 200 * GIB), nodes)).orElseThrow();

    assertThat(choice.exact()).isTrue();
    assertThat(choice.nodes()).hasSize(7).startsWith("node-0000").endsWith("node-0006");
  }

  @Test
  void aThousandNodesOfAllDifferentSizesGoToTheHeuristicWhichStillCoversIrreducibly() {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      nodes.add(
          node(
              String.format("node-%04d", i),
              cpuMemory(8_000 + (i % 7) * 4_000 + i, (32 + (i % 5) * 32) * GIB + i)));
    }
    final LockRequest request = request(cpuMemory(300_000, 1200 * GIB), nodes);

    final LockChoice choice = LockChooser.choose(request).orElseThrow();

    assertThat(choice.exact()).isFalse();
    assertThat(LockChooser.irreducible(request.target(), nodes, choice.nodes())).isTrue();
  }
}

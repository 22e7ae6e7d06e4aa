package io.quotaflow.schemas;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Fully populated example records: every field, optional ones included, holds a non-default value,
 * so a round trip that dropped a field would show.
 */
public final class Fixtures {
  /** A millisecond instant: timestamp-millis keeps no finer precision. */
  public static final Instant T0 = Instant.parse("2026-03-01T12:00:00.123Z");

  public static final long GIB = 1L << 30;

  private Fixtures() {}

  public static Map<String, Long> resources(final long milliCpu, final long memoryBytes) {
    return Map.of("cpu", milliCpu, "memory", memoryBytes);
  }

  public static PodKey podKey() {
    return PodKey.newBuilder().setCluster("east").setNamespace("team-a").setName("train-0").build();
  }

  public static QuotaKey quotaKey() {
    return QuotaKey.newBuilder().setCluster("east").setName("team-a").build();
  }

  public static NodeKey nodeKey() {
    return NodeKey.newBuilder().setCluster("east").setName("node-1").build();
  }

  public static FieldProblem problem(final String field) {
    return FieldProblem.newBuilder().setField(field).setReason("not a quantity: 'lots'").build();
  }

  public static PodState.Builder podState() {
    return PodState.newBuilder()
        .setUid("6a1f-uid")
        .setQuotaName("team-a")
        .setPhase(PodPhase.RUNNING)
        .setNodeName("node-1")
        .setPriority(100)
        .setRequests(Map.of("cpu", 1500L, "memory", 2 * GIB, "nvidia.com/gpu", 1L))
        .setPreemptible(false)
        .setCreationTime(T0)
        .setStartTime(T0.plusSeconds(5))
        .setDeletionTime(T0.plusSeconds(60))
        .setProblems(List.of(problem("spec.overhead.cpu")))
        .setGang(
            PodGang.newBuilder()
                .setName("train")
                .setMinMember(4)
                .setConvention("koordinator")
                .build());
  }

  public static QuotaSpec.Builder quotaSpec() {
    return QuotaSpec.newBuilder()
        .setMin(resources(10_000, 20 * GIB))
        .setMax(resources(20_000, 40 * GIB))
        .setParent("dept-x")
        .setIsParent(true)
        .setSharedWeight(resources(3_000, GIB))
        .setAllowLent(false)
        .setLendingLimit(resources(2_000, GIB))
        .setBorrowingLimit(resources(5_000, 8 * GIB))
        .setNamespaces(List.of("team-a", "team-a-ci"))
        .setProblems(List.of(problem("metadata.annotations.shared-weight")));
  }

  public static NodeState.Builder nodeState() {
    return NodeState.newBuilder()
        .setAllocatable(resources(64_000, 256 * GIB))
        .setReady(true)
        .setSchedulable(false)
        .setDeleting(true)
        .setProblems(List.of(problem("status.allocatable.memory")));
  }

  public static GroupRuntime.Builder groupRuntime() {
    return GroupRuntime.newBuilder()
        .setParent("dept-x")
        .setIsParent(false)
        .setValid(false)
        .setReason("min > max in cpu")
        .setMin(resources(10_000, 20 * GIB))
        .setScaledMin(resources(8_000, 16 * GIB))
        .setMax(resources(20_000, 40 * GIB))
        .setSharedWeight(resources(20_000, 40 * GIB))
        .setRequest(resources(25_000, 30 * GIB))
        .setLimitedRequest(resources(20_000, 30 * GIB))
        .setUsed(resources(12_000, 10 * GIB))
        .setNonPreemptibleRequest(resources(2_000, GIB))
        .setNonPreemptibleUsed(resources(1_000, GIB))
        .setRuntime(resources(15_000, 30 * GIB))
        .setComputedAt(T0);
  }

  public static PodQuotaClass.Builder podQuotaClass() {
    return PodQuotaClass.newBuilder()
        .setGroup("team-a")
        .setPodUid("6a1f-uid")
        .setQuotaClass(QuotaClass.OVER_QUOTA);
  }

  public static EvictionCommand.Builder evictionCommand() {
    return EvictionCommand.newBuilder()
        .setId("ev-5d41402a")
        .setPodUid("6a1f-uid")
        .setGroup("team-a")
        .setPriority(10)
        .setDimensionsOver(List.of("cpu"))
        .setUsed(resources(12_000, 10 * GIB))
        .setRuntime(resources(10_000, 30 * GIB))
        .setPodRequest(resources(1_500, 2 * GIB))
        .setReason("team-a uses 12000m cpu over its runtime of 10000m for 120s")
        .setReasonCode("reclaimed-after-delay")
        .setIssuedAt(T0);
  }

  public static EvictionResult.Builder evictionResult() {
    return EvictionResult.newBuilder()
        .setCommandId("ev-5d41402a")
        .setPodUid("6a1f-uid")
        .setOutcome(EvictionOutcome.BLOCKED_BY_BUDGET)
        .setMessage("Cannot evict pod as it would violate the pod's disruption budget.")
        .setAttempts(5)
        .setCompletedAt(T0.plusSeconds(30));
  }
}

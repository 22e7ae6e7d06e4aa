package io.quotaflow.engine.convert;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import java.util.List;
import java.util.Map;

/** Reads the input topics' records into the quota model of the core. Pure functions. */
public final class InputRecords {
  private InputRecords() {}

  /** The pod {@code namespace/name} as the core sees it. */
  public static QuotaPod pod(final String namespace, final String name, final PodState state) {
    return new QuotaPod(
        new PodRef(namespace, name),
        state.getUid(),
        state.getQuotaName().filter(label -> !label.isEmpty()),
        phase(state.getPhase()),
        state.getNodeName().filter(node -> !node.isEmpty()),
        state.getPriority(),
        resources(state.getRequests()),
        state.getPreemptible(),
        state.getCreationTime(),
        state.getStartTime(),
        state.getDeletionTime(),
        problems(state.getProblems()));
  }

  /** The quota group {@code name} as the core sees it. */
  public static QuotaGroup group(final String name, final QuotaSpec spec) {
    return new QuotaGroup(
        name,
        spec.getParent().filter(parent -> !parent.isEmpty()).orElse(SpecialGroups.ROOT),
        spec.getIsParent(),
        resources(spec.getMin()),
        resources(spec.getMax()),
        spec.getSharedWeight().map(InputRecords::resources),
        spec.getAllowLent(),
        spec.getLendingLimit().map(InputRecords::resources),
        spec.getBorrowingLimit().map(InputRecords::resources),
        spec.getNamespaces(),
        problems(spec.getProblems()),
        spec.getReservation().map(ReservationRecords::spec));
  }

  /** The node {@code name} as the core sees it. */
  public static QuotaNode node(final String name, final NodeState state) {
    return new QuotaNode(
        name,
        resources(state.getAllocatable()),
        state.getReady(),
        state.getSchedulable(),
        state.getDeleting(),
        problems(state.getProblems()));
  }

  /** A resource map of a record as a list. */
  public static ResourceList resources(final Map<String, Long> amounts) {
    return ResourceList.of(amounts);
  }

  private static PodPhase phase(final io.quotaflow.schemas.PodPhase phase) {
    return switch (phase) {
      case PENDING -> PodPhase.PENDING;
      case RUNNING -> PodPhase.RUNNING;
      case SUCCEEDED -> PodPhase.SUCCEEDED;
      case FAILED -> PodPhase.FAILED;
      case UNKNOWN -> PodPhase.UNKNOWN;
    };
  }

  private static List<SpecProblem> problems(final List<FieldProblem> problems) {
    return problems.stream()
        .map(problem -> new SpecProblem(problem.getField(), problem.getReason()))
        .toList();
  }
}

package io.quotaflow.engine.convert;

import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.LabelOperator;
import io.quotaflow.schemas.LabelRequirement;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

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
        problems(state.getProblems()),
        state.getGang().flatMap(InputRecords::gang));
  }

  /**
   * The gang a pod's record names. The connectors write only valid gangs; a record that breaks
   * {@link Gang}'s rules anyway (another writer) is read leniently rather than failing the pod: no
   * name, no gang; a minMember below 1, unknown.
   */
  static Optional<Gang> gang(final PodGang gang) {
    if (gang.getName().isEmpty()) {
      return Optional.empty();
    }
    final OptionalInt minMember =
        gang.getMinMember()
            .filter(min -> min >= 1)
            .map(OptionalInt::of)
            .orElse(OptionalInt.empty());
    return Optional.of(new Gang(gang.getName(), minMember, gang.getConvention()));
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
        spec.getReservation().map(ReservationRecords::spec),
        spec.getTreeId(),
        // The webhook switches are read by the quota webhook from the object, never by the engine.
        false,
        List.of(),
        spec.getNamespace(),
        // The selector itself is read by the connectors and the quota webhook; the engine needs
        // only the namespaces it selects.
        Optional.empty(),
        spec.getSelectedNamespaces(),
        spec.getIgnoredNamesakes());
  }

  /** The node {@code name} as the core sees it. */
  public static QuotaNode node(final String name, final NodeState state) {
    return new QuotaNode(
        name,
        resources(state.getAllocatable()),
        state.getReady(),
        state.getSchedulable(),
        state.getDeleting(),
        problems(state.getProblems()),
        state.getLabels());
  }

  /**
   * The PodGroup of {@code convention} named {@code name} in {@code namespace} as the core sees it
   * (what {@code PodGroupMembership} reads a gang's minMember from).
   */
  public static PodGroupObject podGroup(
      final String convention, final String namespace, final String name, final PodGroupSpec spec) {
    return new PodGroupObject(
        namespace,
        name,
        convention,
        spec.getMinMember().map(OptionalInt::of).orElse(OptionalInt.empty()),
        problems(spec.getProblems()));
  }

  /** The ElasticQuotaProfile {@code name} as the core sees it. */
  public static QuotaProfile profile(final String name, final QuotaProfileSpec spec) {
    final List<SpecProblem> problems = new ArrayList<>(problems(spec.getProblems()));
    ResourceRatio ratio = ResourceRatio.ONE;
    final String written = spec.getResourceRatio().orElse("").trim();
    if (!written.isEmpty()) {
      try {
        ratio = new ResourceRatio(new BigDecimal(written));
      } catch (NumberFormatException e) {
        problems.add(new SpecProblem("spec.resourceRatio", "\"" + written + "\" is not a number"));
      }
    }
    final List<NodeSelector.Requirement> expressions = new ArrayList<>();
    for (final LabelRequirement requirement : spec.getNodeSelector().getMatchExpressions()) {
      final NodeSelector.Operator operator = operator(requirement.getOperator());
      if (operator == null) {
        // An operator this engine does not know selects no node.
        expressions.add(
            new NodeSelector.Requirement(
                requirement.getKey(), NodeSelector.Operator.IN, List.of()));
        problems.add(
            new SpecProblem(
                "spec.nodeSelector.matchExpressions",
                "unknown operator for " + requirement.getKey()));
      } else {
        expressions.add(
            new NodeSelector.Requirement(requirement.getKey(), operator, requirement.getValues()));
      }
    }
    return new QuotaProfile(
        name,
        spec.getTreeId(),
        // The webhook switches are read by the quota webhook from the object, never by the engine.
        spec.getQuotaName(),
        spec.getQuotaLabels(),
        ratio,
        new NodeSelector(spec.getNodeSelector().getMatchLabels(), expressions),
        problems);
  }

  private static NodeSelector.Operator operator(final LabelOperator operator) {
    return switch (operator) {
      case IN -> NodeSelector.Operator.IN;
      case NOT_IN -> NodeSelector.Operator.NOT_IN;
      case EXISTS -> NodeSelector.Operator.EXISTS;
      case DOES_NOT_EXIST -> NodeSelector.Operator.DOES_NOT_EXIST;
      case UNKNOWN -> null;
    };
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
    if (problems.isEmpty()) {
      return List.of(); // as nearly every record: no stream on the engine's hot path
    }
    return problems.stream()
        .map(problem -> new SpecProblem(problem.getField(), problem.getReason()))
        .toList();
  }
}

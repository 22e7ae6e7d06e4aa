package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.engine.convert.ReservationRecords;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.LabelOperator;
import io.quotaflow.schemas.LabelRequirement;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeSelectorSpec;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodClaimEntry;
import io.quotaflow.schemas.PodClaimStatus;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps the quota core's view of Kubernetes objects to the Avro records of the source topics. Pure.
 *
 * <p>Every map is sorted by name, so a record's bytes depend only on its content: the source
 * compares bytes to decide whether anything quotaflow reads has changed.
 */
public final class RecordMapping {

  private RecordMapping() {}

  /** The key of a pod in {@code cluster}. */
  public static PodKey podKey(final String cluster, final QuotaPod pod) {
    return PodKey.newBuilder()
        .setCluster(cluster)
        .setNamespace(pod.ref().namespace())
        .setName(pod.ref().name())
        .build();
  }

  /** The state of a pod, its unreadable fields as problems; no claims. */
  public static PodState podState(final QuotaPod pod) {
    return podState(pod, List.of(), List.of());
  }

  /**
   * The state of a pod read from {@code object}, with the claims of its {@code spec.resourceClaims}
   * and {@code status.resourceClaimStatuses} (docs/semantics.md section 22).
   */
  public static PodState podState(final QuotaPod pod, final Pod object) {
    return podState(pod, DraRecords.podClaims(object), DraRecords.podClaimStatuses(object));
  }

  private static PodState podState(
      final QuotaPod pod,
      final List<PodClaimEntry> claims,
      final List<PodClaimStatus> claimStatuses) {
    return PodState.newBuilder()
        .setUid(pod.uid())
        .setQuotaName(pod.quotaName().orElse(null))
        .setPhase(PodPhase.valueOf(pod.phase().name()))
        .setNodeName(pod.nodeName().orElse(null))
        .setPriority(pod.priority())
        .setRequests(resources(pod.request()))
        .setPreemptible(pod.preemptible())
        .setCreationTime(pod.creationTime())
        .setStartTime(pod.startTime().orElse(null))
        .setDeletionTime(pod.deletionTime().orElse(null))
        .setProblems(problems(pod.problems()))
        .setGang(pod.gang().map(RecordMapping::gang).orElse(null))
        .setResourceClaims(claims)
        .setResourceClaimStatuses(claimStatuses)
        .build();
  }

  /** A pod's gang; minMember null while the pod does not tell it. */
  static PodGang gang(final Gang gang) {
    return PodGang.newBuilder()
        .setName(gang.name())
        .setMinMember(gang.minMember().isPresent() ? gang.minMember().getAsInt() : null)
        .setConvention(gang.convention())
        .build();
  }

  /** The key of a quota group in {@code cluster}: its name (namespaces do not scope groups). */
  public static QuotaKey quotaKey(final String cluster, final QuotaGroup group) {
    return QuotaKey.newBuilder().setCluster(cluster).setName(group.name()).build();
  }

  /** The specification of a group; a child of the root has no parent in the record. */
  public static QuotaSpec quotaSpec(final QuotaGroup group) {
    return QuotaSpec.newBuilder()
        .setMin(resources(group.min()))
        .setMax(resources(group.max()))
        .setParent(SpecialGroups.ROOT.equals(group.parent()) ? null : group.parent())
        .setIsParent(group.parentGroup())
        .setSharedWeight(group.sharedWeight().map(RecordMapping::resources).orElse(null))
        .setAllowLent(group.allowLent())
        .setLendingLimit(group.lendingLimit().map(RecordMapping::resources).orElse(null))
        .setBorrowingLimit(group.borrowingLimit().map(RecordMapping::resources).orElse(null))
        .setNamespaces(List.copyOf(group.namespaces()))
        .setProblems(problems(group.problems()))
        .setReservation(group.reservation().map(ReservationRecords::record).orElse(null))
        .setTreeId(group.treeId())
        .setNamespace(group.namespace())
        .setSelectedNamespaces(List.copyOf(group.selectedNamespaces()))
        .setIgnoredNamesakes(List.copyOf(group.ignoredNamesakes()))
        .build();
  }

  /** The key of a node in {@code cluster}. */
  public static NodeKey nodeKey(final String cluster, final QuotaNode node) {
    return NodeKey.newBuilder().setCluster(cluster).setName(node.name()).build();
  }

  /** The state of a node. */
  public static NodeState nodeState(final QuotaNode node) {
    return NodeState.newBuilder()
        .setAllocatable(resources(node.allocatable()))
        .setReady(node.ready())
        .setSchedulable(node.schedulable())
        .setDeleting(node.deleting())
        .setProblems(problems(node.problems()))
        .setLabels(new TreeMap<>(node.labels()))
        .build();
  }

  /** The key of an ElasticQuotaProfile in {@code cluster}. */
  public static ProfileKey profileKey(final String cluster, final QuotaProfile profile) {
    return new ProfileKey(cluster, profile.name());
  }

  /** The record of an ElasticQuotaProfile, its ratio as written. */
  public static QuotaProfileSpec profileSpec(final QuotaProfile profile) {
    final List<LabelRequirement> expressions = new ArrayList<>();
    for (final NodeSelector.Requirement requirement : profile.nodeSelector().expressions()) {
      expressions.add(
          LabelRequirement.newBuilder()
              .setKey(requirement.key())
              .setOperator(LabelOperator.valueOf(requirement.operator().name()))
              .setValues(requirement.values())
              .build());
    }
    return QuotaProfileSpec.newBuilder()
        .setTreeId(profile.treeId())
        .setQuotaName(profile.quotaName())
        .setQuotaLabels(new TreeMap<>(profile.quotaLabels()))
        .setResourceRatio(
            profile.ratio().equals(ResourceRatio.ONE) ? null : profile.ratio().toString())
        .setNodeSelector(
            NodeSelectorSpec.newBuilder()
                .setMatchLabels(new TreeMap<>(profile.nodeSelector().matchLabels()))
                .setMatchExpressions(expressions)
                .build())
        .setProblems(problems(profile.problems()))
        .build();
  }

  /** The key of a PodGroup of {@code cluster}: its convention (whose API), namespace and name. */
  public static io.quotaflow.schemas.PodGroupKey podGroupKey(
      final String cluster, final PodGroupObject podGroup) {
    return new io.quotaflow.schemas.PodGroupKey(
        cluster, podGroup.convention(), podGroup.namespace(), podGroup.name());
  }

  /** The record of a PodGroup of uid {@code uid}: its minMember, when it gives one. */
  public static PodGroupSpec podGroupSpec(final PodGroupObject podGroup, final String uid) {
    return new PodGroupSpec(
        uid,
        podGroup.minMember().isPresent() ? podGroup.minMember().getAsInt() : null,
        problems(podGroup.problems()));
  }

  /** A resource list as a sorted map of canonical amounts. */
  static Map<String, Long> resources(final ResourceList list) {
    return new TreeMap<>(list.asMap());
  }

  static List<FieldProblem> problems(final List<SpecProblem> problems) {
    return problems.stream()
        .map(
            problem ->
                FieldProblem.newBuilder()
                    .setField(problem.field())
                    .setReason(problem.reason())
                    .build())
        .toList();
  }
}

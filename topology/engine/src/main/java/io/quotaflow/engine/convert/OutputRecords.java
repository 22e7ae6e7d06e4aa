package io.quotaflow.engine.convert;

import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the core's results as the output topics' records, and reads them back (the stores hold the
 * same records, and a restarted task hands them to the core as its previous result). Pure
 * functions; {@code status -> runtime -> status} is the identity.
 */
public final class OutputRecords {
  private OutputRecords() {}

  /**
   * The runtime record of a group status, computed at {@code computedAt}, with what the group's own
   * pods request before its request floor ({@code ownRequest}, empty when not known).
   */
  public static GroupRuntime runtime(
      final GroupStatus status, final ResourceList ownRequest, final Instant computedAt) {
    return runtime(status, ownRequest, null, computedAt);
  }

  /**
   * The runtime record of a group status, with its node reservation's state ({@code reservation},
   * null for a group without one).
   */
  public static GroupRuntime runtime(
      final GroupStatus status,
      final ResourceList ownRequest,
      final GroupReservation reservation,
      final Instant computedAt) {
    return runtime(status, ownRequest, reservation, QuotaTrees.DEFAULT_TREE, computedAt);
  }

  /**
   * The runtime record of a group status in quota tree {@code tree} (written as null for the
   * default tree, so that clusters without profiles write what they always wrote).
   */
  public static GroupRuntime runtime(
      final GroupStatus status,
      final ResourceList ownRequest,
      final GroupReservation reservation,
      final String tree,
      final Instant computedAt) {
    return runtimeBuilder(status, ownRequest, tree, computedAt).setReservation(reservation).build();
  }

  /**
   * The builder of {@link #runtime}'s record, without a reservation: the features fill in the
   * fields they own before it is built.
   */
  public static GroupRuntime.Builder runtimeBuilder(
      final GroupStatus status,
      final ResourceList ownRequest,
      final String tree,
      final Instant computedAt) {
    final boolean parentIsRoot =
        status.parent().isEmpty() || SpecialGroups.ROOT.equals(status.parent());
    return GroupRuntime.newBuilder()
        .setParent(parentIsRoot ? null : status.parent())
        .setIsParent(status.parentGroup())
        .setValid(status.valid())
        .setReason(status.reason().orElse(null))
        .setMin(map(status.min()))
        .setScaledMin(map(status.scaledMin()))
        .setMax(map(status.max()))
        .setSharedWeight(map(status.sharedWeight()))
        .setRequest(map(status.request()))
        .setLimitedRequest(map(status.limitedRequest()))
        .setUsed(map(status.used()))
        .setNonPreemptibleRequest(map(status.nonPreemptibleRequest()))
        .setNonPreemptibleUsed(map(status.nonPreemptibleUsed()))
        .setRuntime(map(status.runtime()))
        .setOwnRequest(map(ownRequest))
        .setReservation(null)
        .setGuaranteed(map(status.guaranteed()))
        .setComputedAt(computedAt)
        .setTree(QuotaTrees.DEFAULT_TREE.equals(tree) ? null : tree)
        .setPastBorrowed(map(status.pastBorrowed()));
  }

  /** What the group's own pods request, as {@link #runtime} wrote it (empty when not known). */
  public static ResourceList ownRequest(final GroupRuntime runtime) {
    return list(runtime.getOwnRequest());
  }

  /** The group status of group {@code name} that {@link #runtime} wrote. */
  public static GroupStatus status(final String name, final GroupRuntime runtime) {
    final String parent =
        runtime.getParent().orElse(SpecialGroups.ROOT.equals(name) ? "" : SpecialGroups.ROOT);
    return new GroupStatus(
        name,
        parent,
        runtime.getIsParent(),
        runtime.getValid(),
        runtime.getReason(),
        list(runtime.getMin()),
        list(runtime.getScaledMin()),
        list(runtime.getMax()),
        list(runtime.getSharedWeight()),
        list(runtime.getRequest()),
        list(runtime.getLimitedRequest()),
        list(runtime.getUsed()),
        list(runtime.getNonPreemptibleRequest()),
        list(runtime.getNonPreemptibleUsed()),
        list(runtime.getRuntime()),
        list(runtime.getGuaranteed()),
        list(runtime.getPastBorrowed()));
  }

  /**
   * The record of a pod's assignment: its group and class; {@link QuotaClass#UNKNOWN} for a pod
   * that has no class (pending or finished).
   */
  public static PodQuotaClass assignment(final PodAssignment assignment, final String podUid) {
    return PodQuotaClass.newBuilder()
        .setGroup(assignment.group())
        .setPodUid(podUid)
        .setQuotaClass(
            assignment.podClass().map(OutputRecords::quotaClass).orElse(QuotaClass.UNKNOWN))
        .setUnboundLabel(assignment.unbound().orElse(null))
        .build();
  }

  /** The assignment {@link #assignment} wrote, for the pod {@code ref}. */
  public static PodAssignment assignment(final PodRef ref, final PodQuotaClass record) {
    return new PodAssignment(
        ref,
        record.getGroup(),
        podClass(record.getQuotaClass()),
        Optional.empty(),
        record.getUnboundLabel());
  }

  /** The class as written on the pod-classes topic. */
  public static QuotaClass quotaClass(final PodClass podClass) {
    return switch (podClass) {
      case IN_QUOTA -> QuotaClass.IN_QUOTA;
      case OVER_QUOTA -> QuotaClass.OVER_QUOTA;
    };
  }

  /** The class a record states; empty for {@link QuotaClass#UNKNOWN}. */
  public static Optional<PodClass> podClass(final QuotaClass quotaClass) {
    return switch (quotaClass) {
      case IN_QUOTA -> Optional.of(PodClass.IN_QUOTA);
      case OVER_QUOTA -> Optional.of(PodClass.OVER_QUOTA);
      case UNKNOWN -> Optional.empty();
    };
  }

  /** A resource list as a record map. */
  public static Map<String, Long> map(final ResourceList list) {
    return list.asMap();
  }

  private static ResourceList list(final Map<String, Long> map) {
    return ResourceList.of(map);
  }
}

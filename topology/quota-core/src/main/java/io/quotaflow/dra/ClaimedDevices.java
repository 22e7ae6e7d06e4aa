package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The devices a pod's ResourceClaims add to its request (semantics.md section 22), applied after
 * {@link io.quotaflow.kube.PodAdapter} wherever a pod is read with its cluster's DRA objects. A pod
 * without {@code spec.resourceClaims} is left exactly as read. Pure: no I/O, no clock.
 *
 * <p>Each entry of {@code spec.resourceClaims} is charged once ({@link PodClaims}): a named claim
 * as {@link ClaimConsumers} decides who pays for it; a template's claim from the claim generated
 * for the pod once it is known, else from the template. An allocated claim is charged from its
 * allocation ({@link ClaimAllocation}), an unallocated one from its requests ({@link
 * ClaimRequests}).
 */
public final class ClaimedDevices {

  private final DeviceClassMappings mappings;

  public ClaimedDevices(DeviceClassMappings mappings) {
    this.mappings = Objects.requireNonNull(mappings, "mappings");
  }

  /** {@code read} with the claimed devices added to its request and their problems to its own. */
  public QuotaPod apply(Pod pod, QuotaPod read, DraObjects objects) {
    return withCharge(read, charge(pod, objects));
  }

  /**
   * {@code read} with {@code charge} added; {@code read} itself when the charge is nothing. A pod
   * whose devices cannot all be counted ({@link DeviceCharge#resolved()}) is preemptible whatever
   * its label says (section 22.9): devices charged nothing must not also be kept from reclaim.
   */
  public static QuotaPod withCharge(QuotaPod read, DeviceCharge charge) {
    if (charge.equals(DeviceCharge.NONE)) {
      return read;
    }
    final List<SpecProblem> problems = new ArrayList<>(read.problems());
    problems.addAll(charge.problems());
    final QuotaPod.Builder charged =
        read.toBuilder().request(read.request().plus(charge.devices())).problems(problems);
    if (!charge.resolved()) {
      charged.preemptible(true);
    }
    return charged.build();
  }

  /** What the slices of {@code objects} add to the cluster total (section 22.8). */
  public DeviceSupply supply(DraObjects objects) {
    return DeviceSupply.of(objects, mappings);
  }

  /** What the pod's claims add to its request, with the problems met on the way. */
  public DeviceCharge charge(Pod pod, DraObjects objects) {
    if (!hasClaims(pod)) {
      return DeviceCharge.NONE;
    }
    return new PodClaims(pod, mappings, objects).charge();
  }

  private static boolean hasClaims(Pod pod) {
    return pod.getSpec() != null
        && pod.getSpec().getResourceClaims() != null
        && !pod.getSpec().getResourceClaims().isEmpty();
  }
}

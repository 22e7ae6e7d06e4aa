package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import java.util.List;
import java.util.Optional;

/**
 * Who pays for a claim (semantics.md section 22.5): the first pod in its {@code
 * status.reservedFor}. Another pod that uses the claim shares devices already charged. A claim
 * reserved for no pod yet is charged to every pod that names it, until one is reserved.
 */
final class ClaimConsumers {

  private static final String PODS = "pods";

  private ClaimConsumers() {}

  /** Whether {@code pod} is charged for {@code claim}. */
  static boolean charges(ResourceClaim claim, ObjectMeta pod) {
    final Optional<ResourceClaimConsumerReference> first = firstPod(claim);
    if (first.isEmpty()) {
      return true;
    }
    final String uid = first.get().getUid();
    final String podUid = pod.getUid();
    // The uid tells a pod from an earlier pod of the same name; without both, the name decides.
    if (uid != null && !uid.isEmpty() && podUid != null && !podUid.isEmpty()) {
      return uid.equals(podUid);
    }
    return first.get().getName() != null && first.get().getName().equals(pod.getName());
  }

  private static Optional<ResourceClaimConsumerReference> firstPod(ResourceClaim claim) {
    final List<ResourceClaimConsumerReference> consumers =
        claim.getStatus() == null || claim.getStatus().getReservedFor() == null
            ? List.of()
            : claim.getStatus().getReservedFor();
    return consumers.stream()
        .filter(c -> PODS.equals(c.getResource()))
        .filter(c -> c.getApiGroup() == null || c.getApiGroup().isEmpty())
        .findFirst();
  }
}

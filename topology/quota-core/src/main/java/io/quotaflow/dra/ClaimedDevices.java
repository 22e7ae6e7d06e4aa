package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The devices a pod's ResourceClaims add to its request (semantics.md section 22), applied after
 * {@link io.quotaflow.kube.PodAdapter} wherever a pod is read with its cluster's DRA objects. A pod
 * without {@code spec.resourceClaims} is left exactly as read. Pure: no I/O, no clock.
 *
 * <p>Each entry of {@code spec.resourceClaims} is charged once: a named claim ({@code
 * resourceClaimName}) as {@link ClaimConsumers} decides; a template's claim from the claim
 * generated for the pod ({@code status.resourceClaimStatuses}) once it is known, else from the
 * template. An allocated claim is charged from its allocation, an unallocated one from its
 * requests.
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

  /** {@code read} with {@code charge} added; {@code read} itself when the charge is nothing. */
  public static QuotaPod withCharge(QuotaPod read, DeviceCharge charge) {
    if (charge.equals(DeviceCharge.NONE)) {
      return read;
    }
    final List<SpecProblem> problems = new ArrayList<>(read.problems());
    problems.addAll(charge.problems());
    return read.toBuilder()
        .request(read.request().plus(charge.devices()))
        .problems(problems)
        .build();
  }

  /** What the pod's claims add to its request, with the problems met on the way. */
  public DeviceCharge charge(Pod pod, DraObjects objects) {
    if (!hasClaims(pod)) {
      return DeviceCharge.NONE;
    }
    final ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
    final String namespace =
        meta.getNamespace() == null || meta.getNamespace().isEmpty()
            ? "default"
            : meta.getNamespace();
    final Map<String, PodResourceClaimStatus> generated = new HashMap<>();
    if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
      for (final PodResourceClaimStatus status : pod.getStatus().getResourceClaimStatuses()) {
        generated.put(status.getName(), status);
      }
    }
    final ClaimRequests requests = new ClaimRequests(mappings, objects);
    final ClaimAllocation allocation = new ClaimAllocation(mappings, objects);
    final List<PodResourceClaim> claims = pod.getSpec().getResourceClaims();
    DeviceCharge charge = DeviceCharge.NONE;
    for (int i = 0; i < claims.size(); i++) {
      final PodResourceClaim entry = claims.get(i);
      final String field = "spec.resourceClaims[" + i + "]";
      final boolean named = nonEmpty(entry.getResourceClaimName());
      final boolean templated = nonEmpty(entry.getResourceClaimTemplateName());
      if (named == templated) {
        charge =
            charge.plus(
                DeviceCharge.problem(
                    field,
                    "needs exactly one of resourceClaimName and resourceClaimTemplateName;"
                        + " nothing is charged for it"));
      } else if (named) {
        final String name = entry.getResourceClaimName();
        final Optional<ResourceClaim> claim = objects.claim(namespace, name);
        charge =
            charge.plus(
                claim.isEmpty()
                    ? DeviceCharge.problem(
                        field + ".resourceClaimName",
                        "ResourceClaim "
                            + namespace
                            + "/"
                            + name
                            + " is not known; its devices are not charged")
                    : claim(claim.get(), meta, field, requests, allocation));
      } else {
        charge =
            charge.plus(
                templated(
                    entry,
                    generated.get(entry.getName()),
                    namespace,
                    meta,
                    field,
                    objects,
                    requests,
                    allocation));
      }
    }
    return charge;
  }

  private static DeviceCharge templated(
      PodResourceClaim entry,
      PodResourceClaimStatus status,
      String namespace,
      ObjectMeta pod,
      String field,
      DraObjects objects,
      ClaimRequests requests,
      ClaimAllocation allocation) {
    if (status != null) {
      if (!nonEmpty(status.getResourceClaimName())) {
        // The API's word: no claim was needed for this entry, which can then be ignored.
        return DeviceCharge.NONE;
      }
      final Optional<ResourceClaim> claim = objects.claim(namespace, status.getResourceClaimName());
      if (claim.isPresent()) {
        return claim(claim.get(), pod, field, requests, allocation);
      }
    }
    final String name = entry.getResourceClaimTemplateName();
    final Optional<ResourceClaimTemplate> template = objects.template(namespace, name);
    if (template.isEmpty()) {
      return DeviceCharge.problem(
          field + ".resourceClaimTemplateName",
          "ResourceClaimTemplate "
              + namespace
              + "/"
              + name
              + " is not known; its devices are not charged");
    }
    return requests.charge(
        template.get().getSpec() == null ? null : template.get().getSpec().getSpec(),
        field + " (ResourceClaimTemplate " + namespace + "/" + name + "): spec.spec");
  }

  private static DeviceCharge claim(
      ResourceClaim claim,
      ObjectMeta pod,
      String field,
      ClaimRequests requests,
      ClaimAllocation allocation) {
    if (!ClaimConsumers.charges(claim, pod)) {
      return DeviceCharge.NONE;
    }
    final String where = field + " (ResourceClaim " + claim.getMetadata().getName() + ")";
    return ClaimAllocation.isAllocated(claim)
        ? allocation.charge(claim, where)
        : requests.charge(claim.getSpec(), where + ": spec");
  }

  private static boolean hasClaims(Pod pod) {
    return pod.getSpec() != null
        && pod.getSpec().getResourceClaims() != null
        && !pod.getSpec().getResourceClaims().isEmpty();
  }

  private static boolean nonEmpty(String value) {
    return value != null && !value.isEmpty();
  }
}

package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The claims of one pod, each entry of {@code spec.resourceClaims} charged as semantics.md section
 * 22.2 says: a named claim, or a template's claim (the generated claim once known, else the
 * template).
 */
final class PodClaims {

  private final ObjectMeta pod;
  private final String namespace;
  private final List<PodResourceClaim> entries;
  private final Map<String, PodResourceClaimStatus> generated = new HashMap<>();
  private final DraObjects objects;
  private final ClaimRequests requests;
  private final ClaimAllocation allocation;

  PodClaims(Pod pod, DeviceClassMappings mappings, DraObjects objects) {
    this.pod = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
    this.namespace =
        this.pod.getNamespace() == null || this.pod.getNamespace().isEmpty()
            ? "default"
            : this.pod.getNamespace();
    this.entries =
        pod.getSpec() == null || pod.getSpec().getResourceClaims() == null
            ? List.of()
            : pod.getSpec().getResourceClaims();
    if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
      for (final PodResourceClaimStatus status : pod.getStatus().getResourceClaimStatuses()) {
        generated.put(status.getName(), status);
      }
    }
    this.objects = objects;
    this.requests = new ClaimRequests(mappings, objects);
    this.allocation = new ClaimAllocation(mappings, objects);
  }

  /** Every entry's devices, added up, with every entry's problems. */
  DeviceCharge charge() {
    DeviceCharge charge = DeviceCharge.NONE;
    for (int i = 0; i < entries.size(); i++) {
      charge = charge.plus(entry(entries.get(i), "spec.resourceClaims[" + i + "]"));
    }
    return charge;
  }

  private DeviceCharge entry(PodResourceClaim entry, String field) {
    final boolean named = nonEmpty(entry.getResourceClaimName());
    final boolean templated = nonEmpty(entry.getResourceClaimTemplateName());
    if (named == templated) {
      return DeviceCharge.problem(
          field,
          "needs exactly one of resourceClaimName and resourceClaimTemplateName;"
              + " nothing is charged for it");
    }
    if (named) {
      final String name = entry.getResourceClaimName();
      return objects
          .claim(namespace, name)
          .map(claim -> claim(claim, field))
          .orElseGet(
              () ->
                  notKnown(
                      field + ".resourceClaimName", "ResourceClaim " + namespace + "/" + name));
    }
    return templated(entry, field);
  }

  private DeviceCharge templated(PodResourceClaim entry, String field) {
    final PodResourceClaimStatus status = generated.get(entry.getName());
    if (status != null) {
      if (!nonEmpty(status.getResourceClaimName())) {
        // The API's word: no claim was needed for this entry, which can then be ignored.
        return DeviceCharge.NONE;
      }
      final Optional<ResourceClaim> claim = objects.claim(namespace, status.getResourceClaimName());
      if (claim.isPresent()) {
        return claim(claim.get(), field);
      }
    }
    final String name = entry.getResourceClaimTemplateName();
    final String what = "ResourceClaimTemplate " + namespace + "/" + name;
    final Optional<ResourceClaimTemplate> template = objects.template(namespace, name);
    if (template.isEmpty()) {
      return notKnown(field + ".resourceClaimTemplateName", what);
    }
    return requests.charge(
        template.get().getSpec() == null ? null : template.get().getSpec().getSpec(),
        field + " (" + what + "): spec.spec");
  }

  private DeviceCharge claim(ResourceClaim claim, String field) {
    if (!ClaimConsumers.charges(claim, pod)) {
      return DeviceCharge.NONE;
    }
    final String where = field + " (ResourceClaim " + claim.getMetadata().getName() + ")";
    return ClaimAllocation.isAllocated(claim)
        ? allocation.charge(claim, where)
        : requests.charge(claim.getSpec(), where + ": spec");
  }

  private static DeviceCharge notKnown(String field, String what) {
    return DeviceCharge.unresolved(
        Unresolved.Kind.NOT_KNOWN,
        what,
        field,
        what + " is not known; its devices are not charged");
  }

  private static boolean nonEmpty(String value) {
    return value != null && !value.isEmpty();
  }
}

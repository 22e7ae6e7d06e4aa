package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.Objects;
import java.util.Optional;

/**
 * What the engine computed for one quota group: the answer quotaflow exists to give.
 *
 * @param name the group name
 * @param parent the parent's name ({@code koordinator-root-quota} for a first-level group; empty
 *     string for the root itself)
 * @param parentGroup true for a parent group
 * @param valid false when the group or an ancestor breaks a rule of SPEC 9
 * @param reason why the group is invalid; for a valid group, a warning (starting with {@code
 *     "warning:"}, e.g. an unreadable shared weight) or empty
 * @param min spec.min as configured
 * @param scaledMin the min used in the distribution after min scaling (SPEC 7.5)
 * @param max spec.max as configured (a tracked dimension missing here is unbounded)
 * @param sharedWeight the effective weight (explicit, or the default policy's); empty for the root
 *     and the special groups, which take no part in any split
 * @param request bottom-up request (SPEC 6)
 * @param limitedRequest min(request, max), what the parent sees
 * @param used what bound pods hold, summed raw up the tree
 * @param nonPreemptibleRequest request of non-preemptible pods
 * @param nonPreemptibleUsed used of non-preemptible pods
 * @param runtime what the group may hold right now (SPEC 7); frozen at its last valid value while
 *     the group is invalid
 * @param guaranteed with the guarantee of allocated usage on (docs/semantics.md section 17), {@code
 *     max(min, own used + Σ children's guaranteed)}; empty when it is off, and for the root and the
 *     special groups
 * @param pastBorrowed with fair share with memory on (docs/semantics.md section 24), the group's
 *     decayed average borrowed per resource, which lowers its weight in its parent's split; empty
 *     when it is off or the group borrowed nothing (resources at zero are left out)
 */
public record GroupStatus(
    String name,
    String parent,
    boolean parentGroup,
    boolean valid,
    Optional<String> reason,
    ResourceList min,
    ResourceList scaledMin,
    ResourceList max,
    ResourceList sharedWeight,
    ResourceList request,
    ResourceList limitedRequest,
    ResourceList used,
    ResourceList nonPreemptibleRequest,
    ResourceList nonPreemptibleUsed,
    ResourceList runtime,
    ResourceList guaranteed,
    ResourceList pastBorrowed) {

  public GroupStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(scaledMin, "scaledMin");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(sharedWeight, "sharedWeight");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(limitedRequest, "limitedRequest");
    Objects.requireNonNull(used, "used");
    Objects.requireNonNull(nonPreemptibleRequest, "nonPreemptibleRequest");
    Objects.requireNonNull(nonPreemptibleUsed, "nonPreemptibleUsed");
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(guaranteed, "guaranteed");
    Objects.requireNonNull(pastBorrowed, "pastBorrowed");
  }

  /** A status without past usage (fair share with memory off). */
  public GroupStatus(
      String name,
      String parent,
      boolean parentGroup,
      boolean valid,
      Optional<String> reason,
      ResourceList min,
      ResourceList scaledMin,
      ResourceList max,
      ResourceList sharedWeight,
      ResourceList request,
      ResourceList limitedRequest,
      ResourceList used,
      ResourceList nonPreemptibleRequest,
      ResourceList nonPreemptibleUsed,
      ResourceList runtime,
      ResourceList guaranteed) {
    this(
        name,
        parent,
        parentGroup,
        valid,
        reason,
        min,
        scaledMin,
        max,
        sharedWeight,
        request,
        limitedRequest,
        used,
        nonPreemptibleRequest,
        nonPreemptibleUsed,
        runtime,
        guaranteed,
        ResourceList.empty());
  }

  /** A status without guaranteed amount (the guarantee of allocated usage off). */
  public GroupStatus(
      String name,
      String parent,
      boolean parentGroup,
      boolean valid,
      Optional<String> reason,
      ResourceList min,
      ResourceList scaledMin,
      ResourceList max,
      ResourceList sharedWeight,
      ResourceList request,
      ResourceList limitedRequest,
      ResourceList used,
      ResourceList nonPreemptibleRequest,
      ResourceList nonPreemptibleUsed,
      ResourceList runtime) {
    this(
        name,
        parent,
        parentGroup,
        valid,
        reason,
        min,
        scaledMin,
        max,
        sharedWeight,
        request,
        limitedRequest,
        used,
        nonPreemptibleRequest,
        nonPreemptibleUsed,
        runtime,
        ResourceList.empty(),
        ResourceList.empty());
  }

  /** The dimensions this group tracks: every aggregate (request, used, ...) lists exactly these. */
  public java.util.Set<String> trackedDimensions() {
    return request.names();
  }
}

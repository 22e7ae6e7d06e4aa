package io.quotaflow.engine.query;

import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.PodClass;
import java.util.Objects;
import java.util.Optional;

/**
 * One pod charged to a group, as the engine last computed it.
 *
 * @param ref namespace and name
 * @param uid the pod's uid
 * @param podClass its over-quota class; empty while it has none (pending or finished)
 */
public record PodInGroup(PodRef ref, String uid, Optional<PodClass> podClass) {
  /** Requires every part. */
  public PodInGroup {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(podClass, "podClass");
  }
}

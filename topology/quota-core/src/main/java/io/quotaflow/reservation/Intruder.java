package io.quotaflow.reservation;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.Objects;

/**
 * A pod of another group on a node locked by a Guaranteed reservation: the reclaim path evicts it
 * once it has stayed there for the revoke delay.
 *
 * @param pod the pod
 * @param uid the uid the eviction is aimed at
 * @param group the group the pod is charged to
 * @param node the locked node it runs on
 * @param reservingGroup the group whose reservation locks the node
 * @param priority the pod's priority
 * @param request its effective request
 */
public record Intruder(
    PodRef pod,
    String uid,
    String group,
    String node,
    String reservingGroup,
    int priority,
    ResourceList request) {

  public Intruder {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(reservingGroup, "reservingGroup");
    Objects.requireNonNull(request, "request");
  }
}

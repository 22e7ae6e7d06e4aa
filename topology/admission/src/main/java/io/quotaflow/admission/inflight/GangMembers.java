package io.quotaflow.admission.inflight;

import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.PodAssignment;
import java.util.Optional;

/**
 * What a cluster's state counts of one gang's members in the gang's group (docs/semantics.md
 * section 21): the pods it lists there (pending or bound, all in the group's request) and, of them,
 * those bound to a node (in its used). Read from the group's pods in the gang's namespace, each
 * pod's gang as the engine last read it.
 *
 * @param listed members counted in the group's request
 * @param bound members bound to a node
 */
record GangMembers(int listed, int bound) {

  static GangMembers of(ClusterView view, String group, GangKey gang) {
    int listed = 0;
    int bound = 0;
    for (final PodAssignment pod : view.podsOf(group)) {
      if (!pod.ref().namespace().equals(gang.namespace())) {
        continue;
      }
      final Optional<String> name =
          view.podInput(pod.ref()).flatMap(QuotaPod::gang).map(Gang::name);
      if (name.isPresent() && name.get().equals(gang.name())) {
        listed++;
        if (pod.podClass().isPresent()) {
          bound++;
        }
      }
    }
    return new GangMembers(listed, bound);
  }
}

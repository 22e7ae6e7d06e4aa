package io.quotaflow.admission.state;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.tree.ClusterInputs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One cluster's stored inputs, read as the engine reads them: pods with claims charged their
 * devices, nodes counting the devices their ResourceSlices publish (docs/semantics.md sections 22
 * and 22.8). The what-if and the view's edits start from these inputs. Pods with claims and nodes
 * are converted once every input is in, whatever order the store lists kinds in.
 */
final class StoredInputs {

  private final ClusterDevices devices;
  private final List<QuotaGroup> groups = new ArrayList<>();
  private final List<QuotaPod> pods = new ArrayList<>();
  private final Map<PodRef, PodState> claimants = new HashMap<>();

  StoredInputs(final ClaimedDevices claimed) {
    this.devices = new ClusterDevices(claimed);
  }

  /**
   * Takes one stored input: a quota, pod or node record, or a DRA object; anything else (a profile,
   * a PodGroup, a tombstone's null) is not an input of the trees and is skipped.
   */
  void add(final InputId id, final Object value) {
    if (value == null) {
      return;
    }
    if (ClusterDevices.isDra(id.kind())) {
      devices.put(id, value);
    } else if (value instanceof QuotaSpec spec) {
      groups.add(InputRecords.group(id.name(), spec));
    } else if (value instanceof PodState state) {
      if (DraRecords.hasClaims(state)) {
        claimants.put(new PodRef(id.namespace(), id.name()), state);
      } else {
        pods.add(InputRecords.pod(id.namespace(), id.name(), state));
      }
    } else if (value instanceof NodeState state) {
      devices.node(id.name(), state);
    }
  }

  ClusterInputs inputs() {
    final List<QuotaPod> all = new ArrayList<>(pods);
    claimants.forEach((ref, state) -> all.add(devices.pod(ref.namespace(), ref.name(), state)));
    return new ClusterInputs(groups, all, devices.nodes());
  }
}

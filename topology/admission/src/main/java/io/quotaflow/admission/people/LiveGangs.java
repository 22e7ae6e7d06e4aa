package io.quotaflow.admission.people;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.inflight.ClusterAdmissions.GangHeld;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.people.view.ViewJson;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.simulate.StatusJson;
import io.quotaflow.tree.GangSummaries;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A group's gangs as the query API and the web view show them (docs/semantics.md 21.4): {@code
 * simulate}'s summary of the pods the view lists in the group, with, live, the hold this instance
 * keeps for each gang's members still to come. A viewer who does not see the group's pods sees its
 * pods' gangs no more: they are read from the same {@link ClusterView#podsOf}.
 */
public final class LiveGangs {

  /** The state of a gang whose first member was admitted and whose others' room is held. */
  static final String ADMITTED = "admitted";

  private final InFlightHolds holds;
  private final QuotaOptions options;

  public LiveGangs(InFlightHolds holds, QuotaOptions options) {
    this.holds = holds;
    this.options = options;
  }

  /**
   * {@link #of} for the web view's detail: each {@code held} also has {@code text}, its request in
   * the units of {@code simulate}'s table.
   */
  public List<ObjectNode> forView(String cluster, String group, ClusterView view) {
    final List<ObjectNode> gangs = of(cluster, group, view);
    for (final ObjectNode gang : gangs) {
      if (gang.get("held") instanceof ObjectNode held) {
        final Map<String, Long> request = new TreeMap<>();
        held.get("request")
            .fields()
            .forEachRemaining(e -> request.put(e.getKey(), e.getValue().asLong()));
        held.set("text", ViewJson.text(ResourceList.of(request)));
      }
    }
    return gangs;
  }

  /** The gangs of {@code group}, by key; empty when it has none or its pods are not shown. */
  public List<ObjectNode> of(String cluster, String group, ClusterView view) {
    final List<QuotaPod> pods = new ArrayList<>();
    for (final PodAssignment pod : view.podsOf(group)) {
      view.podInput(pod.ref()).ifPresent(pods::add);
    }
    final List<GangSummary> summaries = GangSummaries.of(pods, options);
    if (summaries.isEmpty()) {
      return List.of();
    }
    final Map<GangKey, GangHeld> held =
        holds.find(cluster).map(admissions -> admissions.gangsHeldAt(group)).orElse(Map.of());
    final List<ObjectNode> gangs = new ArrayList<>(summaries.size());
    for (final GangSummary summary : summaries) {
      gangs.add(json(summary, Optional.ofNullable(held.get(summary.key()))));
    }
    return gangs;
  }

  /**
   * {@code simulate}'s fields, then {@code held}. A gang not running whole while its hold stands is
   * {@code admitted}: its first member got in and the others' room waits for them.
   */
  static ObjectNode json(GangSummary summary, Optional<GangHeld> held) {
    final ObjectNode gang = StatusJson.gang(summary);
    if (held.isEmpty()) {
      gang.putNull("held");
      return gang;
    }
    if (summary.state() == GangSummary.State.WAITING
        || summary.state() == GangSummary.State.INCOMPLETE) {
      gang.put("state", ADMITTED);
    }
    final ObjectNode hold = gang.putObject("held");
    hold.put("membersToCome", held.get().membersToCome());
    hold.set("request", StatusJson.resources(held.get().request()));
    hold.put("expiresAt", held.get().expiresAt().toEpochMilli());
    return gang;
  }
}

package io.quotaflow.admission.people.explain;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.inflight.WhatIfReads;
import io.quotaflow.admission.people.HiddenGroups;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.explain.ExplanationJson;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.PodExplanation;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodExplainer;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.RuntimeExplainer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/v1/clusters/{cluster}/pods/{namespace}/{name}/explain}: why a pod is where it is
 * (issue 27): its group and how it was found, its class and why, whether it would be admitted now
 * and what would admit it; for a pod quotaflow evicted (among the web view's recent evictions), the
 * eviction's decision and whether its group is still over its runtime. JSON with the steps and
 * {@code text} for people.
 */
public final class ExplainPodQuery extends QueryApi.Query {

  private static final JsonMapper JSON = new JsonMapper();

  private final PodRef pod;
  private final QuotaOptions options;
  private final RecentActivity activity;

  public ExplainPodQuery(PodRef pod, QuotaOptions options, RecentActivity activity) {
    super("query-explain-pod");
    this.pod = pod;
    this.options = options;
    this.activity = activity;
  }

  @Override
  public Answer decide(String cluster, Void request, ClusterView view) {
    // Before any lookup: a pod of a namespace the viewer may not list answers as a missing one,
    // whether it exists or not (no existence oracle).
    if (view instanceof VisibleClusterView visible
        && !visible.viewer().listsPodsIn(pod.namespace())) {
      return noPod(cluster);
    }
    final Optional<QuotaPod> input = view.podInput(pod);
    final List<RecentActivity.Eviction> evictions = evictions(cluster);
    if (input.isEmpty() && evictions.isEmpty()) {
      return noPod(cluster);
    }
    final ObjectNode body = JSON.createObjectNode();
    body.put("cluster", cluster);
    final StringBuilder text = new StringBuilder();
    if (input.isPresent()) {
      // The what-if needs every sibling of the pod's groups: computed over the whole cluster; it
      // names only the pod's group and its ancestors, which the viewer sees.
      final ClusterView whole = view instanceof VisibleClusterView visible ? visible.live() : view;
      final PodExplainer explainer =
          new PodExplainer(WhatIfReads.of(whole), view.directory(), options);
      final String group = view.directory().resolve(input.get(), options).group();
      if (view instanceof VisibleClusterView visible && !visible.lists(group)) {
        return noPod(cluster);
      }
      final Optional<PodAssignment> assignment = view.pod(group, pod);
      final List<QuotaPod> groupPods = new ArrayList<>();
      for (final PodAssignment other : view.podsOf(group)) {
        view.podInput(other.ref()).ifPresent(groupPods::add);
      }
      final PodExplanation explanation = explainer.explain(input.get(), assignment, groupPods);
      body.set("explanation", ExplanationJson.of(explanation));
      text.append(ExplanationText.of(explanation));
    } else {
      body.putNull("explanation");
      text.append("pod ").append(pod).append(": no longer in the cluster\n");
    }
    if (!evictions.isEmpty()) {
      final RecentActivity.Eviction last = evictions.get(evictions.size() - 1);
      if (view instanceof VisibleClusterView visible && !visible.lists(last.group())) {
        return noPod(cluster);
      }
      final ObjectNode decision = body.putObject("eviction");
      decision.put("commandId", last.commandId());
      decision.put("group", last.group());
      decision.put("reason", last.reason());
      decision.put("attempt", last.attempt());
      decision.put("issuedAt", last.issuedAt().toString());
      decision.put("outcome", last.outcome().orElse(null));
      decision.put("message", last.message());
      final Instant since = view.overUsedSince().get(last.group());
      decision.put("groupOverUsedSince", since == null ? null : since.toString());
      decision.put("code", last.code());
      text.append(eviction(last, view.overUsedSince().get(last.group())));
      text.append(guarantees(last, view));
    }
    body.put("text", text.toString());
    return Answer.json(200, body, "ok");
  }

  private Answer noPod(String cluster) {
    return Answer.error(
        404,
        "cluster " + cluster + " has no pod " + pod + " (nor a recent eviction of one)",
        "not-found");
  }

  /**
   * Who holds its guarantee in the split that gives the evicted pod's group its runtime, in each
   * dimension the group was over: the groups that take their whole (scaled) min, which is what a
   * reclaim gives back to them. From the runtime's explanation now, redacted for the viewer.
   */
  private String guarantees(RecentActivity.Eviction eviction, ClusterView view) {
    final ClusterView whole = view instanceof VisibleClusterView visible ? visible.live() : view;
    final RuntimeExplainer explainer = new RuntimeExplainer(WhatIfReads.of(whole), options);
    final StringBuilder out = new StringBuilder();
    for (final String resource : eviction.dimensionsOver()) {
      final Optional<RuntimeExplanation> found =
          explainer
              .explain(eviction.group(), resource)
              .map(
                  e ->
                      view instanceof VisibleClusterView visible
                          ? HiddenGroups.redact(e, visible::lists)
                          : e);
      if (found.isEmpty() || found.get().levels().isEmpty()) {
        continue;
      }
      final RuntimeExplanation.Level split =
          found.get().levels().get(found.get().levels().size() - 1);
      final List<String> holders = new ArrayList<>();
      for (final RuntimeExplanation.Participant p : split.participants()) {
        if (!p.name().equals(split.member())
            && p.scaledMin() > 0
            && p.limitedRequest() >= p.scaledMin()) {
          holders.add(
              p.name()
                  + " (min "
                  + Quantities.format(resource, p.scaledMin())
                  + ", asks "
                  + Quantities.format(resource, p.limitedRequest())
                  + ")");
        }
      }
      out.append("  In ")
          .append(
              switch (split.source()) {
                case CLUSTER -> "the cluster";
                case TREE -> "the quota tree of " + split.parent();
                case PARENT -> split.parent();
              })
          .append("'s split of ")
          .append(resource)
          .append(", ")
          .append(
              holders.isEmpty()
                  ? "no other group uses its whole guarantee now"
                  : "these groups use their whole guarantee now: " + String.join(", ", holders))
          .append("; ")
          .append(eviction.group())
          .append(" gets ")
          .append(Quantities.format(resource, found.get().runtime()))
          .append(" (quotaflow explain group ")
          .append(eviction.group())
          .append(" --resource ")
          .append(resource)
          .append(").\n");
    }
    return out.toString();
  }

  /** This pod's recent evictions, oldest first. */
  private List<RecentActivity.Eviction> evictions(String cluster) {
    final List<RecentActivity.Eviction> mine = new ArrayList<>();
    for (final RecentActivity.Eviction eviction : activity.evictions(cluster)) {
      if (eviction.pod().equals(pod)) {
        mine.add(eviction);
      }
    }
    mine.sort(java.util.Comparator.comparing(RecentActivity.Eviction::issuedAt));
    return mine;
  }

  private static String eviction(RecentActivity.Eviction eviction, Instant overUsedSince) {
    final StringBuilder out = new StringBuilder();
    out.append("Evicted: ")
        .append(eviction.issuedAt())
        .append(", attempt ")
        .append(eviction.attempt())
        .append(", outcome ")
        .append(eviction.outcome().orElse("not known yet"))
        .append('\n');
    out.append("  ").append(eviction.reason()).append('\n');
    out.append(
        "  Victims are its group's preemptible running pods, lowest priority first, then the most"
            + " recently started, until the group is back within its runtime (docs/semantics.md"
            + " section 11).\n");
    out.append(
        overUsedSince == null
            ? "  Its group " + eviction.group() + " is within its runtime now.\n"
            : "  Its group "
                + eviction.group()
                + " is still over its runtime, since "
                + overUsedSince
                + ".\n");
    return out.toString();
  }
}

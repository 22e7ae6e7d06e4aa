package io.quotaflow.admission.people.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.inflight.WhatIfReads;
import io.quotaflow.admission.people.HiddenGroups;
import io.quotaflow.admission.people.QueryParams;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.explain.ExplanationJson;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.Reach;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.quota.Quantities;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.RuntimeExplainer;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/clusters/{cluster}/quotas/{group}/explain?resource=R[&target=Q]}: how the
 * group's runtime in R came about, step by step, and with a target quantity what the group would
 * need to reach it (issue 27; docs/admission.md, "Query API"). Answers JSON with the explanation's
 * steps (amounts in canonical units) and {@code text}, the same for people, in the units a user
 * types.
 */
public final class ExplainQuery extends QueryApi.Query {

  private static final JsonMapper JSON = new JsonMapper();

  // A resource name as Kubernetes allows it: an optional DNS prefix, then a name.
  private static final Pattern RESOURCE =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

  private final String group;
  private final String resource;
  private final Optional<Long> target;
  private final QuotaOptions options;

  private ExplainQuery(String group, String resource, Optional<Long> target, QuotaOptions options) {
    super("query-explain");
    this.group = group;
    this.resource = resource;
    this.target = target;
    this.options = options;
  }

  /** The query for {@code group} with the parameters of {@code query}; a 400 when they are bad. */
  public static ExplainQuery of(String group, String query, QuotaOptions options)
      throws BadRequestException {
    final Map<String, String> params = QueryParams.of(query);
    final String resource = params.get("resource");
    if (resource == null || resource.isEmpty()) {
      throw new BadRequestException(
          "resource is required: the resource to explain, e.g. ?resource=cpu or"
              + " ?resource=nvidia.com/gpu");
    }
    if (!RESOURCE.matcher(resource).matches()) {
      throw new BadRequestException("resource \"" + resource + "\" is not a resource name");
    }
    Optional<Long> target = Optional.empty();
    final String text = params.get("target");
    if (text != null) {
      try {
        target = Optional.of(Quantities.parse(resource, text));
      } catch (IllegalArgumentException e) {
        throw new BadRequestException(
            "target \"" + text + "\" is not a quantity of " + resource + ": " + e.getMessage());
      }
      if (target.get() < 0) {
        throw new BadRequestException("target must not be negative, got \"" + text + "\"");
      }
    }
    return new ExplainQuery(group, resource, target, options);
  }

  @Override
  public Answer decide(String cluster, Void request, ClusterView view) {
    if (view instanceof VisibleClusterView visible && !visible.lists(group)) {
      return QueryApi.noGroup(cluster, group);
    }
    // The splits need every sibling: computed over the whole cluster, then redacted.
    final ClusterView whole = view instanceof VisibleClusterView visible ? visible.live() : view;
    final RuntimeExplainer explainer = new RuntimeExplainer(WhatIfReads.of(whole), options);
    final Optional<RuntimeExplanation> explanation =
        explainer
            .explain(group, resource)
            .map(
                found ->
                    view instanceof VisibleClusterView visible
                        ? HiddenGroups.redact(found, visible::lists)
                        : found);
    if (explanation.isEmpty()) {
      return QueryApi.noGroup(cluster, group);
    }
    final ObjectNode body = JSON.createObjectNode();
    body.put("cluster", cluster);
    body.set("explanation", ExplanationJson.of(explanation.get()));
    final StringBuilder text = new StringBuilder(ExplanationText.of(explanation.get()));
    if (target.isPresent()) {
      final Optional<Reach> reach = explainer.reach(group, resource, target.get());
      final JsonNode reachJson = reach.map(ExplanationJson::of).orElse(JSON.nullNode());
      body.set("reach", reachJson);
      reach.ifPresent(r -> text.append('\n').append(ExplanationText.of(r)));
    }
    body.put("text", text.toString());
    return Answer.json(200, body, "ok");
  }
}

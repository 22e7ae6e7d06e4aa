package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.admission.http.state.GroupHistories;
import io.quotaflow.admission.http.state.HistoryAccess;
import io.quotaflow.admission.http.state.VisibleClusterView;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.ResourceHours;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/clusters/{cluster}/report?from=&to=}: every group's totals over a period, as
 * {@code quotaflow report} prints them (issue 30; docs/semantics.md section 23, docs/admission.md
 * "Reports"): guaranteed, used, borrowed and lent resource-hours, the share of the guarantee used,
 * and evictions by reason. {@code from} and {@code to} read as the history's; by default the last
 * day. The period is widened to whole kept steps. A restricted viewer gets the groups it may list.
 */
final class ReportQuery extends QueryApi.Query {

  private final String from;
  private final String to;
  private final Clock clock;

  private ReportQuery(String from, String to, Clock clock) {
    super("query-report");
    this.from = from;
    this.to = to;
    this.clock = clock;
  }

  /** The query with the parameters of {@code query}; a 400 when they are bad. */
  static ReportQuery of(String query, Clock clock) throws BadRequestException {
    final Map<String, String> params = ViewApi.params(query);
    final String from = params.getOrDefault("from", "-1d");
    final String to = params.getOrDefault("to", "now");
    final Instant now = clock.instant();
    HistoryQuery.instant("from", from, now);
    HistoryQuery.instant("to", to, now);
    return new ReportQuery(from, to, clock);
  }

  @Override
  public Answer decide(String cluster, Void request, ClusterView view) {
    final HistoryAccess access = view.history();
    if (!(access instanceof HistoryAccess.Kept kept)) {
      return HistoryQuery.refusal(cluster, access);
    }
    final GroupHistories histories = kept.histories();
    final Instant now = HistoryQuery.now(clock);
    final Duration step = histories.step();
    final Instant start = HistoryQuery.floor(HistoryQuery.parse(from, now), step);
    final Instant end = HistoryQuery.ceil(HistoryQuery.parse(to, now), step);
    if (!end.isAfter(start)) {
      return Answer.error(
          400, "to must be after from (got " + from + " to " + to + ")", "bad-request");
    }
    final List<String> groups = new ArrayList<>();
    for (final GroupStatus status : view.groups()) {
      if (!SpecialGroups.ROOT.equals(status.name())) {
        groups.add(status.name());
      }
    }
    final Map<String, HistoryStep> totals = histories.totals(groups, start, end, now);
    final ObjectNode body = Json.object();
    body.put("cluster", cluster);
    body.put("from", start.toString());
    body.put("to", end.isAfter(now) ? now.toString() : end.toString());
    final ArrayNode rows = body.putArray("groups");
    totals.forEach(
        (group, total) -> {
          // A tenant's report holds the groups it may list; deleted groups only for those who
          // see the whole cluster.
          if (view instanceof VisibleClusterView visible && !visible.lists(group)) {
            return;
          }
          // The root is the cluster: it has no guarantee to borrow beyond or lend.
          if (SpecialGroups.ROOT.equals(group)) {
            return;
          }
          rows.add(row(group, total, view.group(group).isPresent()));
        });
    return Answer.json(200, body, "ok");
  }

  private static ObjectNode row(String group, HistoryStep total, boolean exists) {
    final ObjectNode row = Json.object();
    row.put("group", group);
    row.put("exists", exists);
    final ObjectNode resources = row.putObject("resources");
    for (final String resource : total.integrals().resources()) {
      final ObjectNode figures = resources.putObject(resource);
      figures.put("unit", ResourceHours.unit(resource));
      figures.put("guaranteed", hours(total, resource, HistoryMetric.MIN));
      figures.put("used", hours(total, resource, HistoryMetric.USED));
      figures.put("borrowed", hours(total, resource, HistoryMetric.BORROWED));
      figures.put("lent", hours(total, resource, HistoryMetric.LENT));
      figures.put("requested", hours(total, resource, HistoryMetric.REQUEST));
      final BigDecimal share = ResourceHours.guaranteeUsedPercent(total.integrals(), resource);
      if (share == null) {
        figures.putNull("guaranteeUsedPercent");
      } else {
        figures.put("guaranteeUsedPercent", share.toPlainString());
      }
      final ObjectNode integrals = figures.putObject("integrals");
      for (final HistoryMetric metric : HistoryMetric.values()) {
        integrals.put(metric.jsonName(), total.integrals().get(resource, metric).toString());
      }
    }
    final ObjectNode evictions = row.putObject("evictions");
    total.evictions().forEach(evictions::put);
    final ObjectNode denials = row.putObject("denials");
    total.denials().forEach(denials::put);
    return row;
  }

  private static String hours(HistoryStep total, String resource, HistoryMetric metric) {
    return ResourceHours.of(resource, total.integrals().get(resource, metric)).toPlainString();
  }
}

package io.quotaflow.admission.people.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.people.QueryParams;
import io.quotaflow.admission.people.history.HistoryQuery;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.GroupHistories;
import io.quotaflow.admission.state.HistoryAccess;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.tree.GroupStatus;
import java.time.Clock;
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
public final class ReportQuery extends QueryApi.Query {

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
  public static ReportQuery of(String query, Clock clock) throws BadRequestException {
    final Map<String, String> params = QueryParams.of(query);
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
    final Reports.Period period;
    try {
      period = Reports.period(from, to, histories, now);
    } catch (IllegalArgumentException e) {
      return Answer.error(400, e.getMessage(), "bad-request");
    }
    final List<String> groups = new ArrayList<>();
    for (final GroupStatus status : view.groups()) {
      groups.add(status.name());
    }
    final ObjectNode body;
    try {
      body =
          Reports.body(
              cluster,
              period,
              now,
              histories,
              groups,
              // A tenant's report holds the groups it may list; deleted groups only for those who
              // see the whole cluster.
              group -> !(view instanceof VisibleClusterView visible) || visible.lists(group),
              group -> view.group(group).isPresent());
    } catch (IllegalArgumentException e) {
      // A period the tier that answers it cannot cut (section 23): a bad request, not an error.
      return Answer.error(400, e.getMessage(), "bad-request");
    }
    return Answer.json(200, body, "ok");
  }
}

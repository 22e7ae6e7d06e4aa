package io.quotaflow.admission.http;

import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.admission.http.state.Staleness;
import io.quotaflow.tree.GroupStatus;
import java.util.List;
import java.util.Optional;

/** The read-only query API over a cluster's state: the tree, and one group with its pods. */
final class QueryApi {

  private QueryApi() {}

  /** What every query shares: no body, no mode, 503 while the cluster's state is unavailable. */
  abstract static class Query implements ClusterEndpoint<Void> {
    private final String name;

    Query(String name) {
      this.name = name;
    }

    @Override
    public final String name() {
      return name;
    }

    @Override
    public final Void parse(byte[] body) {
      return null;
    }

    @Override
    public final Answer cannotDecide(String cluster, Void request, String reason) {
      return unavailable(cluster, reason);
    }

    @Override
    public final Answer allowUnchecked(Void request) {
      throw new UnsupportedOperationException("queries have no mode");
    }

    @Override
    public final Answer stale(Answer answer, String cluster, Staleness staleness, String reason) {
      return StaleAnswers.query(answer, staleness, reason);
    }
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas}. */
  static final class Tree extends Query {
    Tree() {
      super("query-tree");
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      final List<GroupStatus> groups = view.groups();
      return Answer.json(200, QuotaJson.tree(cluster, groups, view.reservations()), "ok");
    }
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas/{name}}. */
  static final class Group extends Query {
    private final String group;

    Group(String group) {
      super("query-group");
      this.group = group;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      final Optional<GroupStatus> status = view.group(group);
      if (status.isEmpty()) {
        return Answer.error(
            404, "cluster " + cluster + " has no quota group " + group, "not-found");
      }
      return Answer.json(
          200,
          QuotaJson.group(
              cluster,
              status.get(),
              view.podsOf(group),
              Optional.ofNullable(view.reservations().get(group))),
          "ok");
    }
  }

  static Answer unavailable(String cluster, String reason) {
    return Answer.error(
            503,
            "the state of cluster " + cluster + " cannot be read now: " + reason,
            "unavailable")
        .withHeader("Retry-After", "1");
  }
}

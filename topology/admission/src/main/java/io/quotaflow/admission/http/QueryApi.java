package io.quotaflow.admission.http;

import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.admission.http.state.Staleness;
import io.quotaflow.tree.GroupStatus;
import java.util.List;
import java.util.Optional;

/** The read-only query API over a cluster's state: the tree, and one group with its pods. */
final class QueryApi {

  private QueryApi() {}

  /** {@code GET /api/v1/clusters/{cluster}/quotas}. */
  static final class Tree implements ClusterEndpoint<Void> {
    @Override
    public String name() {
      return "query-tree";
    }

    @Override
    public Void parse(byte[] body) {
      return null;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      final List<GroupStatus> groups = view.groups();
      return Answer.json(200, QuotaJson.tree(cluster, groups), "ok");
    }

    @Override
    public Answer cannotDecide(String cluster, Void request, String reason) {
      return unavailable(cluster, reason);
    }

    @Override
    public Answer allowUnchecked(Void request) {
      throw new UnsupportedOperationException("queries have no mode");
    }

    @Override
    public Answer stale(Answer answer, String cluster, Staleness staleness, String reason) {
      return StaleAnswers.query(answer, staleness, reason);
    }
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas/{name}}. */
  static final class Group implements ClusterEndpoint<Void> {
    private final String name;

    Group(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return "query-group";
    }

    @Override
    public Void parse(byte[] body) {
      return null;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      final Optional<GroupStatus> group = view.group(name);
      if (group.isEmpty()) {
        return Answer.error(404, "cluster " + cluster + " has no quota group " + name, "not-found");
      }
      return Answer.json(200, QuotaJson.group(cluster, group.get(), view.podsOf(name)), "ok");
    }

    @Override
    public Answer cannotDecide(String cluster, Void request, String reason) {
      return unavailable(cluster, reason);
    }

    @Override
    public Answer allowUnchecked(Void request) {
      throw new UnsupportedOperationException("queries have no mode");
    }

    @Override
    public Answer stale(Answer answer, String cluster, Staleness staleness, String reason) {
      return StaleAnswers.query(answer, staleness, reason);
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

package io.quotaflow.admission.people.query;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.people.QueryParams;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.tree.GroupStatus;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The read-only query API over a cluster's state: the trees, and one group with its pods. */
public final class QueryApi {

  private QueryApi() {}

  /** What every query shares: no body, no mode, 503 while the cluster's state is unavailable. */
  public abstract static class Query implements ClusterEndpoint<Void> {
    private final String name;

    public Query(String name) {
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

  /**
   * {@code GET /api/v1/clusters/{cluster}/quotas}, optionally {@code ?tree=ID}: only the groups of
   * that quota tree (docs/semantics.md section 15).
   */
  public static final class Tree extends Query {
    // A tree id is a profile's name or tree-id label: a Kubernetes name or label value.
    private static final Pattern TREE_ID =
        Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,251}[A-Za-z0-9])?");

    private final Optional<String> tree;

    Tree(Optional<String> tree) {
      super("query-tree");
      this.tree = tree;
    }

    /** The endpoint for a query string; {@code tree} is the only parameter read. */
    public static Tree of(String query) throws BadRequestException {
      final String tree = QueryParams.of(query).get("tree");
      if (tree == null) {
        return new Tree(Optional.empty());
      }
      if (!TREE_ID.matcher(tree).matches()) {
        throw new BadRequestException(
            "tree must be a quota tree id (a profile's name or tree-id label, e.g. default);"
                + " got \""
                + tree
                + "\"");
      }
      return new Tree(Optional.of(tree));
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      final List<String> trees = view.trees();
      if (tree.isPresent() && !trees.contains(tree.get())) {
        return Answer.error(
            404,
            "cluster "
                + cluster
                + " has no quota tree "
                + tree.get()
                + " (its trees: "
                + String.join(", ", trees)
                + ")",
            "not-found");
      }
      final List<GroupStatus> groups = view.groups();
      return Answer.json(
          200,
          QuotaJson.tree(cluster, groups, view.reservations(), QuotaJson.Trees.of(view), tree),
          "ok");
    }
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas/{name}}. */
  public static final class Group extends Query {
    private final String group;
    private final LiveGangs gangs;

    public Group(String group, LiveGangs gangs) {
      super("query-group");
      this.group = group;
      this.gangs = gangs;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView view) {
      // A group the viewer may not see answers as one that does not exist (no existence oracle).
      final Optional<GroupStatus> status = view.group(group);
      if (status.isEmpty()) {
        return noGroup(cluster, group);
      }
      return Answer.json(
          200,
          QuotaJson.group(
              cluster,
              status.get(),
              view.podsOf(group),
              Optional.ofNullable(view.reservations().get(group)),
              QuotaJson.Trees.of(view),
              gangs.of(cluster, group, view)),
          "ok");
    }
  }

  /**
   * The 404 of a group that does not exist, and of one a restricted viewer may not see: the same
   * answer for both, so that a viewer cannot learn which groups exist beyond its own.
   */
  public static Answer noGroup(String cluster, String group) {
    return Answer.error(404, "cluster " + cluster + " has no quota group " + group, "not-found");
  }

  public static Answer unavailable(String cluster, String reason) {
    return Answer.error(
            503,
            "the state of cluster " + cluster + " cannot be read now: " + reason,
            "unavailable")
        .withHeader("Retry-After", "1");
  }
}

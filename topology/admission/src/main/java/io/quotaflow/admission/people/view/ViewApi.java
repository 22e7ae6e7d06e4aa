package io.quotaflow.admission.people.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.people.QueryParams;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.people.whatif.WhatIfEndpoint;
import io.quotaflow.admission.state.ClusterSnapshot;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.simulate.StatusJson;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The endpoints of the web view (docs/admission.md, Web view): its static files, the rows of the
 * tree a parent at a time, one group's detail, the recent activity, and the what-if. Every answer
 * carries {@link SecurityHeaders}. The rows come from the cluster's last state copied here
 * (indexed, at most {@code admission.state.refresh.interval} old, the state the live stream
 * compares), the pods' details from the live stores. The what-if is {@link WhatIfEndpoint}.
 */
public final class ViewApi {

  /** Rows answered at most per request. */
  static final int MAX_LIMIT = 2000;

  /** Rows answered per request unless asked otherwise. */
  static final int DEFAULT_LIMIT = 500;

  /** Siblings as the page lists them: the configured groups by name, then the special ones. */
  static final Comparator<GroupStatus> SIBLINGS =
      Comparator.comparing((GroupStatus g) -> SpecialGroups.isSpecial(g.name()))
          .thenComparing(GroupStatus::name);

  private final ViewAssets assets;
  private final ViewFeed feed;
  private final RecentActivity activity;
  private final InFlightHolds holds;
  private final LiveGangs gangs;
  private final QuotaOptions options;
  private final Clock clock;
  private final WhatIfEndpoint whatIf;

  public ViewApi(
      ViewAssets assets,
      ViewFeed feed,
      RecentActivity activity,
      InFlightHolds holds,
      QuotaOptions options,
      Clock clock,
      ServerLimits limits,
      MeterRegistry registry) {
    this.whatIf = new WhatIfEndpoint(options, limits, registry);
    this.assets = assets;
    this.feed = feed;
    this.activity = activity;
    this.holds = holds;
    this.gangs = new LiveGangs(holds, options);
    this.options = options;
    this.clock = clock;
  }

  /** The what-if, asked from the view's page. */
  public WhatIfEndpoint whatIf() {
    return whatIf;
  }

  /** {@code answer} with the view's security headers. */
  public static Answer secured(Answer answer) {
    Answer result = answer;
    for (final Map.Entry<String, String> header : SecurityHeaders.ALL.entrySet()) {
      result = result.withHeader(header.getKey(), header.getValue());
    }
    return result;
  }

  /** A static file of the page, or 404. */
  public Answer asset(String name) {
    return assets
        .get(name)
        .map(
            asset ->
                new Answer(200, asset.contentType(), asset.body(), "ok", Map.of())
                    .withHeader("Cache-Control", "no-cache"))
        .orElseGet(() -> Answer.error(404, "no such file of the web view: " + name, "no-route"));
  }

  /** The feed the live streams are sent from. */
  ViewFeed feed() {
    return feed;
  }

  /** The rows endpoint for {@code query}, or a 400 answer when the query is wrong. */
  public Rows rows(String query) throws BadRequestException {
    final Map<String, String> params = QueryParams.of(query);
    final Optional<String> parent = Optional.ofNullable(params.get("parent"));
    final int offset = number(params, "offset", 0, Integer.MAX_VALUE, 0);
    final int limit = number(params, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
    return new Rows(parent, offset, limit);
  }

  /**
   * The indexed copy of the cluster's state; before the first copy is taken (just after start), a
   * copy of {@code live} made now: the rows must list children by their statuses, as the copies do
   * (the stores' view lists configured groups only, not the special ones).
   */
  private ClusterView indexed(String cluster, ClusterView live) {
    final ClusterView snapshot =
        feed.snapshot(cluster).orElseGet(() -> ClusterSnapshot.capture(live, clock.instant()));
    // The feed's snapshot is everyone's: a restricted viewer sees it as it sees the live state.
    return live instanceof VisibleClusterView visible
        ? new VisibleClusterView(snapshot, visible.viewer())
        : snapshot;
  }

  /**
   * {@code GET /api/v1/clusters/{cluster}/view/rows}: without {@code parent} the top rows (the
   * root, and groups whose parent chain is broken); with it, that group's children by name, {@code
   * limit} from {@code offset}.
   */
  public final class Rows extends QueryApi.Query {
    private final Optional<String> parent;
    private final int offset;
    private final int limit;

    Rows(Optional<String> parent, int offset, int limit) {
      super("view-rows");
      this.parent = parent;
      this.offset = offset;
      this.limit = limit;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView live) {
      final ClusterView view = indexed(cluster, live);
      final List<GroupStatus> groups;
      if (parent.isEmpty()) {
        groups =
            view.groups().stream()
                .filter(g -> g.parent().isEmpty() || (view.group(g.parent()).isEmpty()))
                .sorted(Comparator.comparing(GroupStatus::name))
                .toList();
      } else {
        if (view.group(parent.get()).isEmpty()) {
          return Answer.error(
              404, "cluster " + cluster + " has no quota group " + parent.get(), "not-found");
        }
        groups = view.children(parent.get()).stream().sorted(SIBLINGS).toList();
      }
      final ObjectNode body = Json.object();
      body.put("cluster", cluster);
      parent.ifPresentOrElse(p -> body.put("parent", p), () -> body.putNull("parent"));
      body.put("total", groups.size());
      body.put("offset", offset);
      body.put("now", clock.instant().toEpochMilli());
      final ArrayNode rows = body.putArray("rows");
      for (int i = offset; i < groups.size() && i < (long) offset + limit; i++) {
        rows.add(ViewJson.row(groups.get(i), view));
      }
      return Answer.json(200, body, "ok");
    }
  }

  /**
   * {@code GET /api/v1/clusters/{cluster}/view/groups/{name}}: a group, its pods, in-flight holds
   * and gangs.
   */
  public final class Detail extends QueryApi.Query {
    private final String group;

    public Detail(String group) {
      super("view-group");
      this.group = group;
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView live) {
      if (live instanceof VisibleClusterView visible && !visible.lists(group)) {
        return QueryApi.noGroup(cluster, group);
      }
      final ClusterView view = indexed(cluster, live);
      final Optional<GroupStatus> status = view.group(group);
      if (status.isEmpty()) {
        return QueryApi.noGroup(cluster, group);
      }
      final ObjectNode body = Json.object();
      body.put("cluster", cluster);
      body.put("now", clock.instant().toEpochMilli());
      body.set("group", ViewJson.row(status.get(), view));
      final ArrayNode pods = body.putArray("pods");
      live.podsOf(group).stream()
          .sorted(Comparator.comparing(PodAssignment::ref))
          .forEach(assignment -> pods.add(pod(live, assignment)));
      final ArrayNode held = body.putArray("holds");
      // In-flight holds name pods of the group's descendants too: not for a viewer of totals only.
      final boolean showsPods = !(live instanceof VisibleClusterView v) || v.shows(group);
      holds
          .find(cluster)
          .filter(admissions -> showsPods)
          .map(admissions -> admissions.heldAt(group))
          .orElse(List.of())
          .forEach(
              hold -> {
                final ObjectNode r = held.addObject();
                r.put("namespace", hold.pod().namespace());
                r.put("name", hold.pod().name());
                r.put("leaf", hold.groups().get(0));
                r.set("request", ViewJson.amounts(hold.request()));
                r.set("text", ViewJson.text(hold.request()));
                r.put("expiresAt", hold.expiresAt().toEpochMilli());
              });
      // The query API's gangs of the group (docs/semantics.md 21.4); none for a totals-only viewer.
      body.putArray("gangs").addAll(gangs.forView(cluster, group, live));
      return Answer.json(200, body, "ok");
    }

    private ObjectNode pod(ClusterView live, PodAssignment assignment) {
      final ObjectNode pod = StatusJson.pod(assignment);
      final Optional<QuotaPod> input = live.podInput(assignment.ref());
      final String podClass =
          assignment
              .podClass()
              .map(StatusJson::className)
              .orElse(input.isPresent() && !input.get().isBound() ? "pending" : "not running");
      pod.put("class", podClass);
      if (input.isPresent()) {
        pod.put("priority", input.get().priority());
        input.get().nodeName().ifPresentOrElse(n -> pod.put("node", n), () -> pod.putNull("node"));
        pod.put("phase", input.get().phase().name());
        pod.set("request", ViewJson.text(input.get().request()));
      } else {
        pod.putNull("priority");
        pod.putNull("node");
        pod.putNull("phase");
        pod.set("request", Json.object());
      }
      assignment.problem().ifPresent(problem -> pod.put("problem", problem));
      return pod;
    }
  }

  /** {@code GET /api/v1/clusters/{cluster}/view/activity}: recent evictions and denials. */
  public final class Activity extends QueryApi.Query {
    public Activity() {
      super("view-activity");
    }

    @Override
    public Answer decide(String cluster, Void request, ClusterView live) {
      if (live instanceof VisibleClusterView visible) {
        return Answer.json(200, ActivityJson.of(cluster, activity, visible::shows), "ok");
      }
      return Answer.json(200, ActivityJson.of(cluster, activity), "ok");
    }
  }

  private static int number(Map<String, String> params, String name, int min, int max, int absent)
      throws BadRequestException {
    final String text = params.get(name);
    if (text == null) {
      return absent;
    }
    try {
      final int value = Integer.parseInt(text);
      if (value < min || value > max) {
        throw new BadRequestException(name + " must be " + min + " to " + max + ": " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new BadRequestException(name + " must be an integer: " + text);
    }
  }
}

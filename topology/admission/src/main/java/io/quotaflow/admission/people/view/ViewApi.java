package io.quotaflow.admission.people.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.people.whatif.WhatIf;
import io.quotaflow.admission.people.whatif.WhatIfException;
import io.quotaflow.admission.people.whatif.WhatIfRequest;
import io.quotaflow.admission.state.ClusterSnapshot;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.simulate.StatusJson;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The endpoints of the web view (docs/admission.md, Web view): its static files, the rows of the
 * tree a parent at a time, one group's detail, the recent activity, and the what-if. Every answer
 * carries {@link SecurityHeaders}. The rows come from the cluster's last state copied here
 * (indexed, at most {@code admission.state.refresh.interval} old, the state the live stream
 * compares), the pods' details and the what-if's inputs from the live stores.
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

  /** What-ifs computed at once; more are answered 503 (each recomputes the whole tree twice). */
  static final int CONCURRENT_WHAT_IFS = 2;

  /** How long a caller waits for a what-if; within the caps it takes far less (issue 25). */
  static final Duration WHAT_IF_DEADLINE = Duration.ofSeconds(10);

  private static final ExecutorService WHAT_IF_THREADS =
      Executors.newFixedThreadPool(
          CONCURRENT_WHAT_IFS,
          runnable -> {
            final Thread thread = new Thread(runnable, "quotaflow-what-if");
            thread.setDaemon(true);
            return thread;
          });

  private final ViewAssets assets;
  private final ViewFeed feed;
  private final RecentActivity activity;
  private final InFlightHolds holds;
  private final LiveGangs gangs;
  private final QuotaOptions options;
  private final Clock clock;
  private final Semaphore whatIfs = new Semaphore(CONCURRENT_WHAT_IFS);
  private final ServerLimits limits;
  private final Timer whatIfTime;
  private final DistributionSummary whatIfPods;

  public ViewApi(
      ViewAssets assets,
      ViewFeed feed,
      RecentActivity activity,
      InFlightHolds holds,
      QuotaOptions options,
      Clock clock,
      ServerLimits limits,
      MeterRegistry registry) {
    this.limits = limits;
    this.whatIfTime =
        Timer.builder("quotaflow.admission.whatif.time")
            .description("Time to compute one what-if (the tree twice)")
            .register(registry);
    this.whatIfPods =
        DistributionSummary.builder("quotaflow.admission.whatif.pods")
            .description("Pods one what-if added")
            .register(registry);
    this.assets = assets;
    this.feed = feed;
    this.activity = activity;
    this.holds = holds;
    this.gangs = new LiveGangs(holds, options);
    this.options = options;
    this.clock = clock;
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
    final Map<String, String> params = params(query);
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

  /** {@code POST /api/v1/clusters/{cluster}/what-if}. */
  public final class WhatIfEndpoint implements ClusterEndpoint<WhatIfRequest> {
    @Override
    public String name() {
      return "what-if";
    }

    @Override
    public WhatIfRequest parse(byte[] body) throws BadRequestException {
      return Json.read(body, WhatIfRequest.class, "the what-if");
    }

    @Override
    public Answer decide(String cluster, WhatIfRequest request, ClusterView view) {
      if (view instanceof VisibleClusterView visible && !visible.viewer().mayEditQuotas()) {
        return Answer.error(
            403,
            "a what-if needs the right to update ElasticQuotas (scheduling.sigs.k8s.io"
                + " elasticquotas, verb update)",
            "forbidden");
      }
      final Optional<ClusterInputs> inputs = view.inputs();
      if (inputs.isEmpty()) {
        return QueryApi.unavailable(
            cluster, "a what-if needs the live inputs, and only a last state is readable here");
      }
      final Optional<String> tooLarge = tooLarge(request);
      if (tooLarge.isPresent()) {
        return Answer.error(413, tooLarge.get(), "too-large");
      }
      if (!whatIfs.tryAcquire()) {
        return Answer.error(
                503,
                CONCURRENT_WHAT_IFS + " what-ifs are being computed; try again in a moment",
                "busy")
            .withHeader("Retry-After", "1");
      }
      // Computed on its own thread, which holds the permit until it ends: a caller waits at most
      // the deadline, and at most CONCURRENT_WHAT_IFS computations ever run.
      final List<QuotaProfile> profiles = List.copyOf(view.treeProfiles().values());
      final List<GroupStatus> groups = view.groups();
      final Future<WhatIf.Result> computed =
          WHAT_IF_THREADS.submit(
              () -> {
                final long started = System.nanoTime();
                try {
                  return WhatIf.compute(inputs.get(), profiles, groups, options, request);
                } finally {
                  whatIfTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                  whatIfs.release();
                }
              });
      final WhatIf.Result result;
      try {
        result = computed.get(WHAT_IF_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof WhatIfException bad) {
          return Answer.error(400, bad.getMessage(), "bad-request");
        }
        throw new IllegalStateException("the what-if failed", e.getCause());
      } catch (TimeoutException e) {
        return Answer.error(
            503,
            "the what-if took longer than " + WHAT_IF_DEADLINE.toSeconds() + " s; make it smaller",
            "too-slow");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Answer.error(503, "interrupted", "busy");
      }
      whatIfPods.record(addedPods(request));
      final ObjectNode body = Json.object();
      body.put("cluster", cluster);
      body.put("groups", result.groups());
      final ArrayNode changed = body.putArray("changed");
      for (final WhatIf.Change change : result.changed()) {
        final ObjectNode node = changed.addObject();
        node.put("name", change.after().name());
        node.put("parent", change.after().parent());
        node.set("before", side(change.before()));
        node.set("after", side(change.after()));
      }
      return Answer.json(200, body, "ok");
    }

    /** Why {@code request} is larger than a what-if may be (issue 25), or empty. */
    private Optional<String> tooLarge(WhatIfRequest request) {
      final long pods = addedPods(request);
      final int edits = request.groups() == null ? 0 : request.groups().size();
      if (pods > limits.whatIfMaxPods()) {
        return Optional.of(
            "a what-if may add at most "
                + limits.whatIfMaxPods()
                + " pods in total ("
                + PluginSettings.WHAT_IF_MAX_PODS.key()
                + "); this one adds "
                + pods);
      }
      if (edits > limits.whatIfMaxEdits()) {
        return Optional.of(
            "a what-if may edit at most "
                + limits.whatIfMaxEdits()
                + " groups ("
                + PluginSettings.WHAT_IF_MAX_EDITS.key()
                + "); this one edits "
                + edits);
      }
      return Optional.empty();
    }

    private static long addedPods(WhatIfRequest request) {
      if (request.pods() == null) {
        return 0;
      }
      long pods = 0;
      for (final WhatIfRequest.AddedPods entry : request.pods()) {
        if (entry != null) {
          pods += entry.count() == null ? 1 : Math.max(0, entry.count());
        }
      }
      return pods;
    }

    private ObjectNode side(GroupStatus status) {
      final ObjectNode side = Json.object();
      side.put("valid", status.valid());
      status.reason().ifPresentOrElse(r -> side.put("reason", r), () -> side.putNull("reason"));
      side.set("runtime", ViewJson.amounts(status.runtime()));
      side.set("text", ViewJson.text(status.runtime()));
      return side;
    }

    @Override
    public Answer cannotDecide(String cluster, WhatIfRequest request, String reason) {
      return QueryApi.unavailable(cluster, reason);
    }

    @Override
    public Answer allowUnchecked(WhatIfRequest request) {
      throw new UnsupportedOperationException("the what-if has no mode");
    }

    @Override
    public Answer stale(
        Answer answer,
        String cluster,
        io.quotaflow.admission.state.Staleness staleness,
        String reason) {
      return StaleAnswers.query(answer, staleness, reason);
    }
  }

  /** The query's parameters, decoded; a repeated one keeps its last value. */
  public static Map<String, String> params(String query) throws BadRequestException {
    final Map<String, String> params = new HashMap<>();
    if (query.isEmpty()) {
      return params;
    }
    for (final String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      final int equals = pair.indexOf('=');
      try {
        final String key =
            URLDecoder.decode(
                equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
        final String value =
            equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
        params.put(key, value);
      } catch (IllegalArgumentException e) {
        throw new BadRequestException("the query string cannot be decoded: " + e.getMessage());
      }
    }
    return params;
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

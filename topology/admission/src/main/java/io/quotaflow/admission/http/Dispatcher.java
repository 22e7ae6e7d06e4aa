package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.http.limits.BodyLimits;
import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.http.peers.StandbyForwarding;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.pods.PodWebhook;
import io.quotaflow.admission.machine.quotas.QuotaWebhook;
import io.quotaflow.admission.machine.scheduler.SchedulerFilter;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.people.explain.ExplainPodQuery;
import io.quotaflow.admission.people.explain.ExplainQuery;
import io.quotaflow.admission.people.history.HistoryQuery;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.people.report.ReportQuery;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.people.view.ViewApi;
import io.quotaflow.admission.state.ClusterReadiness;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.Readiness;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.admission.state.StateUnavailableException;
import io.quotaflow.quota.PodRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each request to its endpoint and decides where it is answered: here when this instance
 * holds the cluster, by the owning instance otherwise; when neither can read the state, from the
 * last state read here if it is young enough (stating its staleness), else by the failure policy.
 * No exception leaves it: an unexpected one is logged with a correlation id and answered per the
 * failure policy.
 */
public final class Dispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  /**
   * Header of a forwarded request's answer given by the failure policy: the owner could not read
   * the cluster's state, so the forwarding instance may answer from its last state instead.
   */
  public static final String UNDECIDED_HEADER = "X-Quotaflow-Undecided";

  /** A matched route: the endpoint name for metrics and the answer. */
  record Routed(String endpoint, Answer answer) {}

  private final PluginConfig config;
  private final ClusterStateReader reader;
  private final PodWebhook pods;
  private final QuotaWebhook quotas;
  private final SchedulerFilter filter;
  // For callers answered without holding or recording anything (issue 39.7).
  private final PodWebhook judgedPods;
  private final SchedulerFilter judgedFilter;
  private final Forwarder forwarder;
  private final StandbyForwarding standbys;
  private final PrometheusMeterRegistry registry;
  private final LastKnownState lastKnown;
  private final ClusterReadiness readinessRule;
  private final StalenessMetrics staleness;
  private final boolean noopEndpoint;
  private final Optional<ViewApi> view;
  private final RecentActivity activity;
  private final LiveGangs gangs;

  private final Clock clock;

  Dispatcher(
      PluginConfig config,
      ClusterStateReader reader,
      PodWebhook pods,
      QuotaWebhook quotas,
      SchedulerFilter filter,
      Forwarder forwarder,
      PrometheusMeterRegistry registry,
      LastKnownState lastKnown,
      StalenessMetrics staleness,
      boolean noopEndpoint,
      Optional<ViewApi> view,
      RecentActivity activity,
      Clock clock,
      LiveGangs gangs) {
    this.clock = clock;
    this.config = config;
    this.reader = reader;
    this.pods = pods;
    this.quotas = quotas;
    this.filter = filter;
    this.judgedPods = pods.judgingOnly();
    this.judgedFilter = filter.judgingOnly();
    this.forwarder = forwarder;
    this.standbys = new StandbyForwarding(reader, forwarder);
    this.registry = registry;
    this.lastKnown = lastKnown;
    this.readinessRule = new ClusterReadiness(reader, lastKnown);
    this.staleness = staleness;
    this.noopEndpoint = noopEndpoint;
    this.view = view;
    this.activity = activity;
    this.gangs = gangs;
  }

  /** Whether {@code parts} name a webhook or the scheduler filter (called by machines only). */
  private static boolean isMachineDoor(String[] parts) {
    return BodyLimits.machineDoor(parts) != null;
  }

  /**
   * Whether {@code path} is health or readiness: all the health port serves (metrics name groups:
   * they are served on the engine's metrics port, and here to token holders; issue 39.8).
   */
  static boolean isHealthPath(String path) {
    return path.equals("/healthz") || path.equals("/readyz");
  }

  Routed dispatch(Call call) {
    final String[] parts = segments(call.path());
    if (view.isPresent()) {
      final Optional<Routed> viewed = viewRoute(view.get(), parts, call);
      if (viewed.isPresent()) {
        final Routed routed = viewed.get();
        return new Routed(routed.endpoint(), ViewApi.secured(routed.answer()));
      }
    }
    if (parts.length == 1 && parts[0].equals("healthz")) {
      return only("GET", call, "healthz", this::health);
    }
    if (parts.length == 1 && parts[0].equals("readyz")) {
      return only("GET", call, "readyz", this::ready);
    }
    if (parts.length == 1 && parts[0].equals("metrics")) {
      return only("GET", call, "metrics", this::metrics);
    }
    if (noopEndpoint && parts.length == 1 && parts[0].equals("noop")) {
      return only("POST", call, "noop", c -> Answer.json(200, Json.object(), "ok"));
    }
    if (parts.length == 4 && parts[0].equals("clusters") && valid(parts[1])) {
      final String cluster = parts[1];
      if (call.trust() == CallerPolicy.Trust.REFUSED && isMachineDoor(parts)) {
        return new Routed(
            "unauthenticated",
            Answer.error(
                401,
                "this endpoint answers only callers with a client certificate signed by "
                    + PluginSettings.TLS_CLIENT_CA_FILE.key()
                    + " (the API server, the scheduler)",
                "unauthenticated"));
      }
      final boolean judged = call.trust() == CallerPolicy.Trust.JUDGED_ONLY;
      if (parts[2].equals("admission") && parts[3].equals("pods")) {
        final PodWebhook webhook = judged ? judgedPods : pods;
        return only("POST", call, webhook.name(), c -> cluster(webhook, cluster, c, true));
      }
      if (parts[2].equals("admission") && parts[3].equals("quotas")) {
        return only("POST", call, quotas.name(), c -> cluster(quotas, cluster, c, true));
      }
      if (parts[2].equals("scheduler") && parts[3].equals("filter")) {
        final SchedulerFilter verb = judged ? judgedFilter : filter;
        return only("POST", call, verb.name(), c -> cluster(verb, cluster, c, true));
      }
    }
    if (parts.length >= 3
        && parts[0].equals("api")
        && parts[1].equals("v1")
        && parts[2].equals("clusters")) {
      if (parts.length == 3) {
        return only("GET", call, "query-clusters", this::clusters);
      }
      if (parts.length == 5 && valid(parts[3]) && parts[4].equals("report")) {
        final ReportQuery report;
        try {
          report = ReportQuery.of(call.query(), clock);
        } catch (BadRequestException e) {
          return new Routed("query-report", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, report.name(), c -> cluster(report, parts[3], c, false));
      }
      if (parts.length == 5 && valid(parts[3]) && parts[4].equals("quotas")) {
        final QueryApi.Tree tree;
        try {
          tree = QueryApi.Tree.of(call.query());
        } catch (BadRequestException e) {
          return new Routed("query-tree", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, tree.name(), c -> cluster(tree, parts[3], c, false));
      }
      if (parts.length == 8
          && valid(parts[3])
          && parts[4].equals("pods")
          && valid(parts[5])
          && valid(parts[6])
          && parts[7].equals("explain")) {
        final ExplainPodQuery explain =
            new ExplainPodQuery(new PodRef(parts[5], parts[6]), quotas.options(), activity);
        return only("GET", call, explain.name(), c -> cluster(explain, parts[3], c, false));
      }
      if (parts.length == 7
          && valid(parts[3])
          && parts[4].equals("quotas")
          && valid(parts[5])
          && parts[6].equals("explain")) {
        final ExplainQuery explain;
        try {
          explain = ExplainQuery.of(parts[5], call.query(), quotas.options());
        } catch (BadRequestException e) {
          return new Routed("query-explain", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, explain.name(), c -> cluster(explain, parts[3], c, false));
      }
      if (parts.length == 7
          && valid(parts[3])
          && parts[4].equals("quotas")
          && valid(parts[5])
          && parts[6].equals("history")) {
        final HistoryQuery history;
        try {
          history = HistoryQuery.of(parts[5], call.query(), clock);
        } catch (BadRequestException e) {
          return new Routed("query-history", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, history.name(), c -> cluster(history, parts[3], c, false));
      }
      if (parts.length == 6 && valid(parts[3]) && parts[4].equals("quotas") && valid(parts[5])) {
        final QueryApi.Group group = new QueryApi.Group(parts[5], gangs);
        return only("GET", call, group.name(), c -> cluster(group, parts[3], c, false));
      }
    }
    return new Routed("unknown", Answer.error(404, "no such endpoint: " + call.path(), "no-route"));
  }

  /** The web view's routes (docs/admission.md, Web view); empty for any other path. */
  private Optional<Routed> viewRoute(ViewApi api, String[] parts, Call call) {
    if (parts.length == 0) {
      // The view's address is the server's: send a browser to the page.
      return Optional.of(
          only(
              "GET",
              call,
              "view-page",
              c -> Answer.text(303, "see /ui/\n", "ok").withHeader("Location", "/ui/")));
    }
    if (parts[0].equals("ui") && parts.length <= 2) {
      final String file = parts.length == 2 ? parts[1] : "";
      return Optional.of(only("GET", call, "view-page", c -> api.asset(file)));
    }
    if (parts.length < 5
        || !parts[0].equals("api")
        || !parts[1].equals("v1")
        || !parts[2].equals("clusters")
        || !valid(parts[3])) {
      return Optional.empty();
    }
    final String cluster = parts[3];
    if (parts.length == 5 && parts[4].equals("what-if")) {
      final ViewApi.WhatIfEndpoint whatIf = api.new WhatIfEndpoint();
      return Optional.of(
          only("POST", call, whatIf.name(), c -> cluster(whatIf, cluster, c, false)));
    }
    if (!parts[4].equals("view")) {
      return Optional.empty();
    }
    if (parts.length == 6 && parts[5].equals("rows")) {
      final ViewApi.Rows rows;
      try {
        rows = api.rows(call.query());
      } catch (BadRequestException e) {
        return Optional.of(
            new Routed("view-rows", Answer.error(400, e.getMessage(), "bad-request")));
      }
      return Optional.of(only("GET", call, rows.name(), c -> cluster(rows, cluster, c, false)));
    }
    if (parts.length == 6 && parts[5].equals("activity")) {
      final ViewApi.Activity activity = api.new Activity();
      return Optional.of(
          only("GET", call, activity.name(), c -> cluster(activity, cluster, c, false)));
    }
    if (parts.length == 7 && parts[5].equals("groups") && valid(parts[6])) {
      final ViewApi.Detail detail = api.new Detail(parts[6]);
      return Optional.of(only("GET", call, detail.name(), c -> cluster(detail, cluster, c, false)));
    }
    return Optional.empty();
  }

  private Routed only(
      String method, Call call, String endpoint, java.util.function.Function<Call, Answer> action) {
    if (!method.equals(call.method())) {
      return new Routed(
          endpoint,
          Answer.error(405, call.method() + " is not allowed here; use " + method, "bad-method")
              .withHeader("Allow", method));
    }
    return new Routed(endpoint, action.apply(call));
  }

  private <T> Answer cluster(
      ClusterEndpoint<T> endpoint, String cluster, Call call, boolean moded) {
    final T request;
    try {
      request = endpoint.parse(call.body());
    } catch (BadRequestException e) {
      return Answer.error(400, e.getMessage(), "bad-request");
    } catch (RuntimeException e) {
      return unexpected(endpoint, cluster, call, e, false, null);
    }
    if (moded && config.mode() == AdmissionMode.OFF) {
      return endpoint.allowUnchecked(request);
    }
    try {
      final Ownership owner = reader.owner(cluster);
      if (owner instanceof Ownership.Local) {
        return local(endpoint, cluster, call, request);
      }
      if (call.forwarded()) {
        // Ownership moved while the request travelled; a second hop could loop.
        return fromLastState(
            endpoint, cluster, call, request, "the state moved while the request was forwarded");
      }
      if (owner instanceof Ownership.Remote remote) {
        final Answer answer;
        try {
          answer = forwarder.forward(remote, call);
        } catch (Forwarder.ForwardingException e) {
          LOG.warn("cluster={} endpoint={} {}", cluster, endpoint.name(), e.getMessage());
          if (!(lastKnown.recall(cluster) instanceof LastKnownState.Usable)) {
            // No copy here: the instance keeping the cluster's standby answers from its own.
            final Optional<Answer> standby = standbys.ask(cluster, call);
            if (standby.isPresent()) {
              return standby.get();
            }
          }
          return fromLastState(endpoint, cluster, call, request, e.getMessage());
        }
        if (answer.headers().containsKey(UNDECIDED_HEADER)
            && lastKnown.recall(cluster) instanceof LastKnownState.Usable) {
          // The new owner cannot read the state yet (restoring): the last one read here answers.
          return fromLastState(
              endpoint,
              cluster,
              call,
              request,
              "its owner " + remote.host() + ":" + remote.port() + " cannot read it yet");
        }
        return answer;
      }
      return fromLastState(
          endpoint, cluster, call, request, ((Ownership.Unavailable) owner).reason());
    } catch (StateUnavailableException e) {
      return fromLastState(endpoint, cluster, call, request, e.getMessage());
    } catch (RuntimeException e) {
      return unexpected(endpoint, cluster, call, e, true, request);
    }
  }

  /** The answer from the stores here, or from the last state when they cannot be read. */
  private <T> Answer local(ClusterEndpoint<T> endpoint, String cluster, Call call, T request) {
    try {
      final Optional<ClusterView> view = reader.cluster(cluster);
      if (view.isPresent()) {
        final Answer answer = endpoint.decide(cluster, request, call.visible(view.get()));
        return markedIfInputsStale(endpoint, cluster, view.get(), answer);
      }
    } catch (StateUnavailableException e) {
      return fromLastState(endpoint, cluster, call, request, e.getMessage());
    }
    // A cluster held here moments ago reads as unknown while its task restores.
    if (lastKnown.recall(cluster) instanceof LastKnownState.Usable) {
      return fromLastState(
          endpoint, cluster, call, request, "its state is not readable here now (restoring)");
    }
    final Answer unknown = Answer.error(404, "unknown cluster " + cluster, "unknown-cluster");
    // Forwarded here as the owner, yet unknown: maybe the task that just moved here is restoring.
    return call.forwarded() ? unknown.withHeader(UNDECIDED_HEADER, "true") : unknown;
  }

  /**
   * {@code answer}, marked stale as answers from a last state are, when the engine has read none of
   * the connectors' heartbeats of the cluster for longer than {@code admission.max.staleness}: the
   * stores are readable but may describe a cluster that has changed since (the connectors or Kafka
   * away). Holds then stay until the inputs pass their expiry (see HoldBook#expire).
   */
  private <T> Answer markedIfInputsStale(
      ClusterEndpoint<T> endpoint, String cluster, ClusterView view, Answer answer) {
    final Optional<Instant> asOf;
    try {
      asOf = view.inputsAsOf();
    } catch (StateUnavailableException e) {
      // The decision stands; only its marking cannot be told now (a rebalance under way).
      return answer;
    }
    if (asOf.isEmpty()) {
      return answer;
    }
    final Staleness inputs = Staleness.at(asOf.get(), Instant.now());
    if (inputs.age().compareTo(config.staleness().max()) <= 0) {
      return answer;
    }
    staleness.answered(cluster, endpoint.name());
    return StaleAnswers.withHeaders(
        endpoint.stale(
            answer,
            cluster,
            inputs,
            "the connectors' newest heartbeat of the cluster read by the engine is "
                + inputs.age().toSeconds()
                + " s old"),
        inputs);
  }

  /**
   * The answer from the cluster's last state read here, stating its staleness, when it is at most
   * {@code admission.max.staleness} old; else the failure policy's. A forwarded request answered by
   * the policy is marked undecided, so that the forwarding instance may answer from its own last
   * state.
   */
  private <T> Answer fromLastState(
      ClusterEndpoint<T> endpoint, String cluster, Call call, T request, String reason) {
    final LastKnownState.Recall recall = lastKnown.recall(cluster);
    if (recall instanceof LastKnownState.Usable usable) {
      final Answer answer = endpoint.decide(cluster, request, call.visible(usable.view()));
      staleness.answered(cluster, endpoint.name());
      return StaleAnswers.withHeaders(
          endpoint.stale(answer, cluster, usable.staleness(), reason), usable.staleness());
    }
    final String why =
        recall instanceof LastKnownState.TooOld old
            ? reason
                + "; the last state read here is "
                + old.staleness().age().toMillis()
                + " ms old, older than "
                + PluginSettings.MAX_STALENESS.key()
                + " ("
                + old.maxStaleness()
                + ")"
            : reason;
    final Answer answer = endpoint.cannotDecide(cluster, request, why, lastTree(cluster));
    return call.forwarded() ? answer.withHeader(UNDECIDED_HEADER, "true") : answer;
  }

  /** The cluster's last state read here, however old, for the checks that need no live state. */
  private Optional<ClusterView> lastTree(String cluster) {
    return lastKnown.snapshot(cluster).map(ClusterView.class::cast);
  }

  private <T> Answer unexpected(
      ClusterEndpoint<T> endpoint,
      String cluster,
      Call call,
      RuntimeException e,
      boolean parsed,
      T request) {
    final String correlation = UUID.randomUUID().toString();
    LOG.error(
        "correlation={} cluster={} endpoint={} unexpected error",
        correlation,
        cluster,
        endpoint.name(),
        e);
    final String reason = "internal error (correlation id " + correlation + ")";
    // A query's request is empty (null) once parsed: it answers as when the state is unreadable.
    if (parsed) {
      try {
        return endpoint
            .cannotDecide(cluster, request, reason, lastTree(cluster))
            .withOutcome("error");
      } catch (RuntimeException again) {
        LOG.error("correlation={} failure answer failed too", correlation, again);
      }
    }
    // Without a readable request there is no review uid to answer with.
    return Answer.error(400, "the request could not be read: " + reason, "error");
  }

  private Answer health(Call call) {
    if (!reader.alive()) {
      return Answer.text(503, "the engine has stopped\n", "unavailable");
    }
    final List<String> silent = reader.silentLoops();
    return silent.isEmpty()
        ? Answer.text(200, "ok\n", "ok")
        : Answer.text(503, "wedged: " + String.join("; ", silent) + "\n", "unavailable");
  }

  private Answer ready(Call call) {
    final Readiness readiness = readinessRule.now();
    return readiness.ready()
        ? Answer.text(200, "ok: " + readiness.detail() + "\n", "ok")
        : Answer.text(503, "not ready: " + readiness.detail() + "\n", "unavailable");
  }

  private Answer metrics(Call call) {
    return new Answer(
        200,
        "text/plain; version=0.0.4; charset=utf-8",
        registry.scrape().getBytes(StandardCharsets.UTF_8),
        "ok",
        Map.of());
  }

  /** The clusters held here and, unless {@code scope=local}, by every other instance. */
  private Answer clusters(Call call) {
    final TreeSet<String> all = new TreeSet<>();
    final List<String> unreachable = new ArrayList<>();
    Optional<Staleness> oldest = Optional.empty();
    String staleReason = "";
    try {
      all.addAll(reader.localClusters());
    } catch (StateUnavailableException e) {
      // As every other answer during a rebalance: the clusters whose last state is young enough.
      for (final String cluster : lastKnown.clusters()) {
        if (lastKnown.recall(cluster) instanceof LastKnownState.Usable usable) {
          all.add(cluster);
          if (oldest.isEmpty() || usable.staleness().age().compareTo(oldest.get().age()) > 0) {
            oldest = Optional.of(usable.staleness());
          }
        }
      }
      if (oldest.isEmpty()) {
        return QueryApi.unavailable("(all)", e.getMessage());
      }
      staleReason = "the stores are not queryable now: " + e.getMessage();
    }
    if (!call.query().contains("scope=local") && !call.forwarded()) {
      for (final Ownership.Remote peer : reader.peers()) {
        try {
          final Answer answer =
              forwarder.forward(
                  peer, new Call("GET", call.path(), "scope=local", new byte[0], false));
          final JsonNode body = Json.MAPPER.readTree(answer.body());
          if (answer.status() != 200 || !body.path("clusters").isArray()) {
            unreachable.add(peer.host() + ":" + peer.port());
            continue;
          }
          body.path("clusters").forEach(name -> all.add(name.asText()));
        } catch (Forwarder.ForwardingException | IOException e) {
          unreachable.add(peer.host() + ":" + peer.port());
        }
      }
    }
    final ObjectNode body = Json.object();
    final ArrayNode names = body.putArray("clusters");
    all.forEach(names::add);
    final ArrayNode missing = body.putArray("unreachable");
    unreachable.forEach(missing::add);
    final Answer answer = Answer.json(200, body, "ok");
    return oldest.isEmpty()
        ? answer
        : StaleAnswers.withHeaders(
            StaleAnswers.query(answer, oldest.get(), staleReason), oldest.get());
  }

  private static String[] segments(String path) {
    final String trimmed = path.startsWith("/") ? path.substring(1) : path;
    return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
  }

  /** A cluster or group name: what Kubernetes allows in a name, nothing that could escape a URL. */
  private static boolean valid(String name) {
    if (name.isEmpty() || name.length() > 253) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      final char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
          && c != '-'
          && c != '.'
          && c != '_') {
        return false;
      }
    }
    return true;
  }
}

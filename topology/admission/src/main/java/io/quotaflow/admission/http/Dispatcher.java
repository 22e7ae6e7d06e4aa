package io.quotaflow.admission.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.limits.BodyLimits;
import io.quotaflow.admission.http.peers.Forwarder;
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
import io.quotaflow.admission.people.whatif.WhatIfEndpoint;
import io.quotaflow.admission.state.ClusterReadiness;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Readiness;
import io.quotaflow.quota.PodRef;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plugin's table of URLs: routes each request to its door (docs/README.md maps each URL to the
 * package of its code), checks its method, and hands a door of a cluster to {@link ClusterAnswers},
 * which decides where it is answered. Health, readiness and metrics are answered here.
 */
final class Dispatcher {

  /** A matched route: the endpoint name for metrics and the answer. */
  record Routed(String endpoint, Answer answer) {}

  private final ClusterStateReader reader;
  private final PodWebhook pods;
  private final QuotaWebhook quotas;
  private final SchedulerFilter filter;
  // For callers answered without holding or recording anything (issue 39.7).
  private final PodWebhook judgedPods;
  private final SchedulerFilter judgedFilter;
  private final ClusterAnswers answers;
  private final ClusterList clusterList;
  private final PrometheusMeterRegistry registry;
  private final ClusterReadiness readinessRule;
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
    this.reader = reader;
    this.pods = pods;
    this.quotas = quotas;
    this.filter = filter;
    this.judgedPods = pods.judgingOnly();
    this.judgedFilter = filter.judgingOnly();
    this.answers = new ClusterAnswers(config, reader, forwarder, lastKnown, staleness);
    this.clusterList = new ClusterList(reader, forwarder, lastKnown);
    this.registry = registry;
    this.readinessRule = new ClusterReadiness(reader, lastKnown);
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
        return only("POST", call, webhook.name(), c -> answers.answer(webhook, cluster, c, true));
      }
      if (parts[2].equals("admission") && parts[3].equals("quotas")) {
        return only("POST", call, quotas.name(), c -> answers.answer(quotas, cluster, c, true));
      }
      if (parts[2].equals("scheduler") && parts[3].equals("filter")) {
        final SchedulerFilter verb = judged ? judgedFilter : filter;
        return only("POST", call, verb.name(), c -> answers.answer(verb, cluster, c, true));
      }
    }
    if (parts.length >= 3
        && parts[0].equals("api")
        && parts[1].equals("v1")
        && parts[2].equals("clusters")) {
      if (parts.length == 3) {
        return only("GET", call, "query-clusters", clusterList::answer);
      }
      if (parts.length == 5 && valid(parts[3]) && parts[4].equals("report")) {
        final ReportQuery report;
        try {
          report = ReportQuery.of(call.query(), clock);
        } catch (BadRequestException e) {
          return new Routed("query-report", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, report.name(), c -> answers.answer(report, parts[3], c, false));
      }
      if (parts.length == 5 && valid(parts[3]) && parts[4].equals("quotas")) {
        final QueryApi.Tree tree;
        try {
          tree = QueryApi.Tree.of(call.query());
        } catch (BadRequestException e) {
          return new Routed("query-tree", Answer.error(400, e.getMessage(), "bad-request"));
        }
        return only("GET", call, tree.name(), c -> answers.answer(tree, parts[3], c, false));
      }
      if (parts.length == 8
          && valid(parts[3])
          && parts[4].equals("pods")
          && valid(parts[5])
          && valid(parts[6])
          && parts[7].equals("explain")) {
        final ExplainPodQuery explain =
            new ExplainPodQuery(new PodRef(parts[5], parts[6]), quotas.options(), activity);
        return only("GET", call, explain.name(), c -> answers.answer(explain, parts[3], c, false));
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
        return only("GET", call, explain.name(), c -> answers.answer(explain, parts[3], c, false));
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
        return only("GET", call, history.name(), c -> answers.answer(history, parts[3], c, false));
      }
      if (parts.length == 6 && valid(parts[3]) && parts[4].equals("quotas") && valid(parts[5])) {
        final QueryApi.Group group = new QueryApi.Group(parts[5], gangs);
        return only("GET", call, group.name(), c -> answers.answer(group, parts[3], c, false));
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
      final WhatIfEndpoint whatIf = api.whatIf();
      return Optional.of(
          only("POST", call, whatIf.name(), c -> answers.answer(whatIf, cluster, c, false)));
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
      return Optional.of(
          only("GET", call, rows.name(), c -> answers.answer(rows, cluster, c, false)));
    }
    if (parts.length == 6 && parts[5].equals("activity")) {
      final ViewApi.Activity activity = api.new Activity();
      return Optional.of(
          only("GET", call, activity.name(), c -> answers.answer(activity, cluster, c, false)));
    }
    if (parts.length == 7 && parts[5].equals("groups") && valid(parts[6])) {
      final ViewApi.Detail detail = api.new Detail(parts[6]);
      return Optional.of(
          only("GET", call, detail.name(), c -> answers.answer(detail, cluster, c, false)));
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

package io.quotaflow.admission.people.whatif;

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
import io.quotaflow.admission.http.PeopleSettings;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.people.view.ViewJson;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /api/v1/clusters/{cluster}/what-if}: the cluster's tree computed again with the
 * request's edits and added pods (issue 25), on its own threads, at most {@link
 * #CONCURRENT_WHAT_IFS} at once and each within {@link #WHAT_IF_DEADLINE}; asked from the web view.
 */
public final class WhatIfEndpoint implements ClusterEndpoint<WhatIfRequest> {

  /** What-ifs computed at once; more are answered 503 (each recomputes the whole tree twice). */
  public static final int CONCURRENT_WHAT_IFS = 2;

  /** How long a caller waits for a what-if; within the caps it takes far less (issue 25). */
  public static final Duration WHAT_IF_DEADLINE = Duration.ofSeconds(10);

  private static final ExecutorService WHAT_IF_THREADS =
      Executors.newFixedThreadPool(
          CONCURRENT_WHAT_IFS,
          runnable -> {
            final Thread thread = new Thread(runnable, "quotaflow-what-if");
            thread.setDaemon(true);
            return thread;
          });

  private final QuotaOptions options;
  private final ServerLimits limits;
  private final Semaphore whatIfs = new Semaphore(CONCURRENT_WHAT_IFS);
  private final Timer whatIfTime;
  private final DistributionSummary whatIfPods;

  public WhatIfEndpoint(QuotaOptions options, ServerLimits limits, MeterRegistry registry) {
    this.options = options;
    this.limits = limits;
    this.whatIfTime =
        Timer.builder("quotaflow.admission.whatif.time")
            .description("Time to compute one what-if (the tree twice)")
            .register(registry);
    this.whatIfPods =
        DistributionSummary.builder("quotaflow.admission.whatif.pods")
            .description("Pods one what-if added")
            .register(registry);
  }

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
              + PeopleSettings.WHAT_IF_MAX_PODS.key()
              + "); this one adds "
              + pods);
    }
    if (edits > limits.whatIfMaxEdits()) {
      return Optional.of(
          "a what-if may edit at most "
              + limits.whatIfMaxEdits()
              + " groups ("
              + PeopleSettings.WHAT_IF_MAX_EDITS.key()
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

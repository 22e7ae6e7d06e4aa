package io.quotaflow.evict;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.cluster.TokenBucket;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out eviction commands in one cluster through the policy/v1 Eviction API, so disruption
 * budgets apply. A command is only ever aimed at the pod uid it names: the pod is read first (gone
 * or replaced: nothing to do), and the eviction itself carries the uid as a precondition, so a pod
 * replaced between the two requests is not evicted either.
 *
 * <p>The client must not retry by itself ({@code KubeClients.withoutRetries}). {@link ApiAnswers}
 * tells what each answer means. A refusal by a disruption budget is reported at once ({@code
 * BLOCKED_BY_BUDGET}, issue 40: waiting for the budget here held up every later command), as is a
 * refusal no retry changes (a pod under two budgets: {@code FAILED}). An API server that cannot
 * take the request (throttling, 5xx, no answer) is asked again, after its Retry-After or the
 * doubling backoff, up to the configured attempts, then {@code UNREACHABLE}. Every request waits
 * for the cluster's token bucket.
 *
 * <p>Events ({@link ReclaimEvents}): on the group's ElasticQuota when its reclaim starts, on the
 * pod just before the eviction is requested, and on the pod when a disruption budget refused.
 */
final class PodEvictor {

  private static final Logger LOG = LoggerFactory.getLogger(PodEvictor.class);

  private final String cluster;
  private final KubernetesClient client;
  private final TokenBucket bucket;
  private final EvictionSettings settings;
  private final Sleeper sleeper;
  private final ReclaimEvents events;

  PodEvictor(
      final String cluster,
      final KubernetesClient client,
      final TokenBucket bucket,
      final EvictionSettings settings,
      final Sleeper sleeper,
      final ReclaimEvents events) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.client = Objects.requireNonNull(client, "client");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * Checks the pod and, unless it is gone, replaced or this is a dry run, evicts it.
   *
   * @throws InterruptedException when interrupted while waiting; nothing is reported then
   */
  Verdict execute(final PodKey key, final EvictionCommand command) throws InterruptedException {
    final String pod = key.getNamespace() + "/" + key.getName();
    final Optional<String> protectedNamespace =
        settings.protectedPods().reason(key.getNamespace(), Optional.empty(), Optional.empty());
    if (protectedNamespace.isPresent()) {
      return refused(pod, command, protectedNamespace.get());
    }
    events.commandFor(command);
    final PodResource resource =
        client.pods().inNamespace(key.getNamespace()).withName(key.getName());
    bucket.acquire();
    final Pod current;
    try {
      current = resource.get();
    } catch (KubernetesClientException e) {
      stopIfInterrupted();
      return new Verdict(
          ApiAnswers.classify(e.getCode(), null, e.getMessage()).kind()
                  == ApiAnswers.Kind.UNAVAILABLE
              ? EvictionOutcome.UNREACHABLE
              : EvictionOutcome.FAILED,
          "reading pod " + pod + " failed: " + e.getMessage(),
          0);
    }
    if (current == null) {
      return new Verdict(EvictionOutcome.GONE, "pod " + pod + " no longer exists", 0);
    }
    final String uid = current.getMetadata().getUid();
    if (!command.getPodUid().equals(uid)) {
      return new Verdict(
          EvictionOutcome.UID_CHANGED,
          "pod " + pod + " is now uid " + uid + ", the command was for uid " + command.getPodUid(),
          0);
    }
    final Optional<String> protection =
        settings
            .protectedPods()
            .reason(
                key.getNamespace(),
                Optional.ofNullable(current.getSpec().getPriorityClassName()),
                Optional.ofNullable(current.getSpec().getPriority()));
    if (protection.isPresent()) {
      return refused(pod, command, protection.get());
    }
    events.beforeEviction(current, command);
    if (settings.dryRun()) {
      return new Verdict(
          EvictionOutcome.DRY_RUN, "dry run: pod " + pod + " would have been evicted", 0);
    }
    return evict(current, key, command);
  }

  private Verdict evict(final Pod current, final PodKey key, final EvictionCommand command)
      throws InterruptedException {
    final String pod = key.getNamespace() + "/" + key.getName();
    final Eviction eviction = eviction(key, command.getPodUid());
    String lastAnswer = "";
    for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
      bucket.acquire();
      final ApiAnswers.Answer answer = post(key, eviction);
      final String said = "the API server answered " + answer.code() + ": " + answer.message();
      switch (answer.kind()) {
        case ACCEPTED:
          LOG.info("cluster {}: evicted pod {} (command {})", cluster, pod, command.getId());
          return new Verdict(EvictionOutcome.EVICTED, "pod " + pod + " evicted", attempt);
        case BUDGET_REFUSED:
          // Not waited for here (issue 40): the budget frees up when the pod's siblings are ready,
          // which may take minutes; the engine commands the pod again after its backoff, and the
          // other commands of this cluster go on meanwhile.
          final String refused =
              "a disruption budget refused the eviction ("
                  + answer.code()
                  + "): "
                  + answer.message();
          events.blockedByBudget(current, command, refused);
          return new Verdict(EvictionOutcome.BLOCKED_BY_BUDGET, refused, attempt);
        case GONE:
          return new Verdict(
              EvictionOutcome.GONE, "pod " + pod + " was deleted meanwhile", attempt);
        case REPLACED:
          return new Verdict(
              EvictionOutcome.UID_CHANGED, "pod " + pod + " was replaced meanwhile", attempt);
        case FAILED:
          return new Verdict(
              EvictionOutcome.FAILED, "evicting pod " + pod + " failed: " + said, attempt);
        case UNAVAILABLE:
        default:
          lastAnswer = said;
          if (attempt < settings.maxAttempts()) {
            final Duration wait = wait(answer, attempt);
            LOG.debug(
                "cluster {}: pod {} attempt {}: {}; again in {} ms",
                cluster,
                pod,
                attempt,
                said,
                wait.toMillis());
            sleeper.sleep(wait);
          }
      }
    }
    final int attempts = settings.maxAttempts();
    LOG.warn(
        "cluster {}: giving up on pod {} after {} attempts: {}",
        cluster,
        pod,
        attempts,
        lastAnswer);
    return new Verdict(
        EvictionOutcome.UNREACHABLE,
        "gave up after " + attempts + " attempts: " + lastAnswer,
        attempts);
  }

  /**
   * The wait before the next request: the server's Retry-After when it gave one (throttling),
   * within the backoff's maximum; the doubling backoff otherwise.
   */
  private Duration wait(final ApiAnswers.Answer answer, final int attempt) {
    return answer
        .retryAfter()
        .map(asked -> asked.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : asked)
        .orElseGet(() -> settings.backoffAfter(attempt));
  }

  /**
   * Posts the Eviction and classifies the answer. Sent through the client's HTTP client rather than
   * {@code PodResource.evict}, which turns every 429 into {@code false} and so cannot tell a budget
   * from throttling.
   *
   * @throws InterruptedException when the executor stops meanwhile
   */
  private ApiAnswers.Answer post(final PodKey key, final Eviction eviction)
      throws InterruptedException {
    final String url =
        URLUtils.join(
            client.getMasterUrl().toString(),
            "api/v1/namespaces",
            key.getNamespace(),
            "pods",
            key.getName(),
            "eviction");
    final HttpClient http = client.getHttpClient();
    final long timeout = Math.max(1, client.getConfiguration().getRequestTimeout());
    final CompletableFuture<HttpResponse<String>> sent =
        http.sendAsync(
            http.newHttpRequestBuilder()
                .uri(url)
                .post("application/json", client.getKubernetesSerialization().asJson(eviction))
                .build(),
            String.class);
    try {
      final HttpResponse<String> response = sent.get(timeout, TimeUnit.MILLISECONDS);
      return ApiAnswers.classify(response.code(), response.header("Retry-After"), response.body());
    } catch (InterruptedException e) {
      sent.cancel(true);
      throw e;
    } catch (java.util.concurrent.TimeoutException e) {
      sent.cancel(true);
      return ApiAnswers.classify(0, null, "no answer within " + timeout + " ms");
    } catch (ExecutionException e) {
      final Throwable cause = e.getCause() == null ? e : e.getCause();
      return ApiAnswers.classify(0, null, cause.toString());
    }
  }

  /** The verdict for a command aimed at a protected pod: refused, whoever wrote it. */
  private Verdict refused(final String pod, final EvictionCommand command, final String why) {
    LOG.warn(
        "cluster {}: refused command {} for pod {} of group {}: {}",
        cluster,
        command.getId(),
        pod,
        command.getGroup(),
        why);
    return new Verdict(EvictionOutcome.PROTECTED, "pod " + pod + " is never evicted: " + why, 0);
  }

  /** A request cut short by an interrupt is not an outcome: the executor is stopping. */
  private static void stopIfInterrupted() throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException("stopped while talking to the API server");
    }
  }

  /** A policy/v1 Eviction that only applies to the pod with this uid. */
  static Eviction eviction(final PodKey key, final String uid) {
    return new EvictionBuilder()
        .withApiVersion("policy/v1")
        .withKind("Eviction")
        .withNewMetadata()
        .withNamespace(key.getNamespace())
        .withName(key.getName())
        .endMetadata()
        .withDeleteOptions(
            new DeleteOptionsBuilder()
                .withNewPreconditions()
                .withUid(uid)
                .endPreconditions()
                .build())
        .build();
  }
}

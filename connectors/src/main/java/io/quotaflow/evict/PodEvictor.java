package io.quotaflow.evict;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.cluster.TokenBucket;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import java.net.HttpURLConnection;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out eviction commands in one cluster through the policy/v1 Eviction API, so disruption
 * budgets apply. A command is only ever aimed at the pod uid it names: the pod is read first (gone
 * or replaced: nothing to do), and the eviction itself carries the uid as a precondition, so a pod
 * replaced between the two requests is not evicted either.
 *
 * <p>The client must not retry by itself ({@code KubeClients.withoutRetries}): a refusal by a
 * disruption budget (429) or a server error is retried here, with a doubling backoff, up to the
 * configured attempts. Every request waits for the cluster's token bucket.
 *
 * <p>Events ({@link ReclaimEvents}): on the group's ElasticQuota when its reclaim starts, on the
 * pod just before the eviction is requested, and on the pod when a disruption budget refused every
 * request.
 */
final class PodEvictor {

  private static final Logger LOG = LoggerFactory.getLogger(PodEvictor.class);
  private static final int TOO_MANY_REQUESTS = 429;

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
          unreachable(e) ? EvictionOutcome.UNREACHABLE : EvictionOutcome.FAILED,
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
    return evict(resource, current, key, command);
  }

  private Verdict evict(
      final PodResource resource,
      final Pod current,
      final PodKey key,
      final EvictionCommand command)
      throws InterruptedException {
    final String pod = key.getNamespace() + "/" + key.getName();
    final Eviction eviction = eviction(key, command.getPodUid());
    boolean refusedByBudget = false;
    boolean unreachable = false;
    String lastRefusal = "";
    for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
      bucket.acquire();
      try {
        if (resource.evict(eviction)) {
          LOG.info("cluster {}: evicted pod {} (command {})", cluster, pod, command.getId());
          return new Verdict(EvictionOutcome.EVICTED, "pod " + pod + " evicted", attempt);
        }
        refusedByBudget = true;
        unreachable = false;
        lastRefusal = "a disruption budget refused the eviction (429)";
      } catch (KubernetesClientException e) {
        stopIfInterrupted();
        final Verdict verdict = settled(e, pod, attempt);
        if (verdict != null) {
          return verdict;
        }
        refusedByBudget = false;
        unreachable = unreachable(e);
        lastRefusal = "the API server answered " + e.getCode() + ": " + e.getMessage();
      }
      if (attempt < settings.maxAttempts()) {
        LOG.debug("cluster {}: pod {} attempt {}: {}", cluster, pod, attempt, lastRefusal);
        sleeper.sleep(settings.backoffAfter(attempt));
      }
    }
    final int attempts = settings.maxAttempts();
    LOG.warn(
        "cluster {}: giving up on pod {} after {} attempts: {}",
        cluster,
        pod,
        attempts,
        lastRefusal);
    final String gaveUp = "gave up after " + attempts + " attempts: " + lastRefusal;
    if (refusedByBudget) {
      events.blockedByBudget(current, command, gaveUp);
      return new Verdict(EvictionOutcome.BLOCKED_BY_BUDGET, gaveUp, attempts);
    }
    return new Verdict(
        unreachable ? EvictionOutcome.UNREACHABLE : EvictionOutcome.FAILED, gaveUp, attempts);
  }

  /**
   * Whether {@code error} says the cluster's API server could not be asked (no answer, a server
   * error, throttling), not that this eviction was refused: such an outcome does not count as one
   * of the pod's attempts (issue 26).
   */
  static boolean unreachable(final KubernetesClientException error) {
    final int code = error.getCode();
    return code == 0 || code == TOO_MANY_REQUESTS || code >= HttpURLConnection.HTTP_INTERNAL_ERROR;
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

  /** The verdict an error settles, or null when it is worth another attempt. */
  private static Verdict settled(
      final KubernetesClientException error, final String pod, final int attempt) {
    final int code = error.getCode();
    if (code == HttpURLConnection.HTTP_NOT_FOUND) {
      return new Verdict(EvictionOutcome.GONE, "pod " + pod + " was deleted meanwhile", attempt);
    }
    if (code == HttpURLConnection.HTTP_CONFLICT) {
      // The uid precondition failed: the name now belongs to another pod.
      return new Verdict(
          EvictionOutcome.UID_CHANGED, "pod " + pod + " was replaced meanwhile", attempt);
    }
    if (code == TOO_MANY_REQUESTS || code == 0 || code >= HttpURLConnection.HTTP_INTERNAL_ERROR) {
      return null;
    }
    return new Verdict(
        EvictionOutcome.FAILED,
        "evicting pod " + pod + " failed with " + code + ": " + error.getMessage(),
        attempt);
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

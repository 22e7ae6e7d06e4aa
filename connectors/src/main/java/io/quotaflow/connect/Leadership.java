package io.quotaflow.connect;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work only while this replica holds a Lease ({@code coordination.k8s.io/v1}), with fabric8's
 * {@link LeaderElector}: {@code lead} when the lease is acquired, {@code yield} when it is lost or
 * the leadership is closed. A lost lease (the renew deadline passed) starts a new round, so a
 * replica that lost it becomes a follower again. {@link #close()} stops the work first and then
 * releases the lease, so a follower takes over at its next try rather than after the lease
 * duration. The callbacks run on one thread of their own, in order, never on fabric8's.
 */
public final class Leadership implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private final KubernetesClient client;
  private final LeaderElectionSettings settings;
  private final String identity;
  private final String namespace;
  private final LongConsumer lead;
  private final Runnable yield;
  private final ExecutorService callbacks;
  private LeaderElector elector;
  private CompletableFuture<?> round = CompletableFuture.completedFuture(null);
  private volatile boolean leading;
  private boolean closed;

  private Leadership(
      final KubernetesClient client,
      final LeaderElectionSettings settings,
      final String identity,
      final LongConsumer lead,
      final Runnable yield) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.namespace = settings.namespace().orElseGet(() -> clientNamespace(client));
    this.lead = Objects.requireNonNull(lead, "lead");
    this.yield = Objects.requireNonNull(yield, "yield");
    this.callbacks =
        Executors.newSingleThreadExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-leadership");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Competes for the lease until closed.
   *
   * @param client a client of the cluster that holds the lease
   * @param identity this replica's name, the lease's holder identity while it leads
   * @param lead starts the work; called on taking the lease, with the term's epoch (see {@link
   *     #epochOf})
   * @param yield stops the work; called on losing the lease and on close (idempotent)
   */
  public static Leadership start(
      final KubernetesClient client,
      final LeaderElectionSettings settings,
      final String identity,
      final LongConsumer lead,
      final Runnable yield) {
    final Leadership leadership = new Leadership(client, settings, identity, lead, yield);
    LOG.info(
        "{} competes for lease {}/{} (duration {}, renew deadline {}, retry period {})",
        identity,
        leadership.namespace,
        settings.leaseName(),
        settings.leaseDuration(),
        settings.renewDeadline(),
        settings.retryPeriod());
    leadership.newRound();
    return leadership;
  }

  /** Whether this replica leads now. */
  public boolean leading() {
    return leading;
  }

  /** The namespace of the lease. */
  String namespace() {
    return namespace;
  }

  private synchronized void newRound() {
    if (closed) {
      return;
    }
    elector =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(settings.leaseName())
                    .withLock(new LeaseLock(namespace, settings.leaseName(), identity))
                    .withLeaseDuration(settings.leaseDuration())
                    .withRenewDeadline(settings.renewDeadline())
                    .withRetryPeriod(settings.retryPeriod())
                    // Released explicitly by close(), after the work has stopped.
                    .withReleaseOnCancel(false)
                    .withLeaderCallbacks(
                        new LeaderCallbacks(this::started, this::stopped, this::newLeader))
                    .build())
            .build();
    round = elector.start();
    round.whenComplete(
        (done, error) -> {
          if (error != null && !round.isCancelled()) {
            LOG.warn("leader election round ended: {}", error.toString());
          }
          // The lease was lost (or could not be read): compete again after a pause.
          CompletableFuture.delayedExecutor(
                  settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
              .execute(this::newRound);
        });
  }

  private void started() {
    leading = true;
    final long epoch = epochOf(client, namespace, settings.leaseName(), identity);
    LOG.info(
        "{} leads (lease {}/{}), writer epoch {}",
        identity,
        namespace,
        settings.leaseName(),
        epoch);
    try {
      callbacks.execute(() -> lead.accept(epoch));
    } catch (RejectedExecutionException e) {
      // Closed while the lease was taken: nothing is to start.
    }
  }

  private void stopped() {
    if (!leading) {
      return;
    }
    LOG.info("{} no longer leads (lease {}/{})", identity, namespace, settings.leaseName());
    leading = false;
    try {
      callbacks.execute(yield);
    } catch (RejectedExecutionException e) {
      // Closed: close() has stopped the work itself.
    }
  }

  private void newLeader(final String holder) {
    if (holder != null && !holder.isEmpty() && !identity.equals(holder)) {
      LOG.info("{} follows {} (lease {}/{})", identity, holder, namespace, settings.leaseName());
    }
  }

  /** Stops the work (at once, on this thread), then releases the lease if held. Idempotent. */
  @Override
  public void close() {
    final LeaderElector last;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      last = elector;
    }
    yield.run();
    try {
      if (last != null && last.release()) {
        LOG.info("{} released lease {}/{}", identity, namespace, settings.leaseName());
      }
    } catch (RuntimeException e) {
      LOG.warn("releasing lease {}/{} failed: {}", namespace, settings.leaseName(), e.toString());
    }
    round.cancel(true);
    callbacks.shutdownNow();
  }

  /**
   * The epoch of the term that {@code identity} has just begun: the lease's {@code
   * leaseTransitions}, which the API server keeps and each new holder raises by one, so an earlier
   * leader's term has a lower one than its successor's whatever their clocks say (issue 40.12). 0
   * when it cannot be read; then the engine judges the cluster's identity only.
   */
  static long epochOf(
      final KubernetesClient client,
      final String namespace,
      final String leaseName,
      final String identity) {
    try {
      final Lease lease = client.leases().inNamespace(namespace).withName(leaseName).get();
      if (lease == null || lease.getSpec() == null) {
        return 0L;
      }
      if (!identity.equals(lease.getSpec().getHolderIdentity())) {
        LOG.warn(
            "lease {}/{} is held by {} already: this term's writes will be fenced",
            namespace,
            leaseName,
            lease.getSpec().getHolderIdentity());
      }
      final Integer transitions = lease.getSpec().getLeaseTransitions();
      return transitions == null ? 0L : Math.max(0L, transitions.longValue());
    } catch (final KubernetesClientException e) {
      LOG.warn(
          "reading lease {}/{} failed: writer epoch 0: {}", namespace, leaseName, e.toString());
      return 0L;
    }
  }

  private static String clientNamespace(final KubernetesClient client) {
    final String namespace = client.getNamespace();
    return namespace == null || namespace.isBlank() ? "default" : namespace;
  }
}

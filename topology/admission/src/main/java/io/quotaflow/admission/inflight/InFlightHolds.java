package io.quotaflow.admission.inflight;

import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.StateUnavailableException;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-flight holds of every cluster this instance decides for. A cluster whose state moves to
 * another instance loses its holds here; the new owner takes them up again from the state's pending
 * pods ({@link PendingAdoption}).
 */
public final class InFlightHolds {

  private static final Logger LOG = LoggerFactory.getLogger(InFlightHolds.class);

  /**
   * How recently this instance must have decided for a cluster held elsewhere to keep its holds: a
   * cluster that moved away gets no decisions here (they are forwarded to its owner), one answered
   * here for a dead owner gets them at the webhooks' rate.
   */
  static final Duration ANSWERING = Duration.ofSeconds(5);

  private final Duration ttl;
  private final Duration gangTtl;
  private final Map<String, ClusterAdmissions> clusters = new ConcurrentHashMap<>();

  /** Holds kept at most {@code ttl}. */
  public InFlightHolds(Duration ttl) {
    this(ttl, ClusterAdmissions.DEFAULT_GANG_HOLD_TTL);
  }

  /**
   * Pods' holds kept at most {@code ttl}, gangs' holds for members to come at most {@code gangTtl}.
   */
  public InFlightHolds(Duration ttl, Duration gangTtl) {
    this.ttl = ttl;
    this.gangTtl = gangTtl;
  }

  /** The admissions of {@code cluster}, created on first use. */
  public ClusterAdmissions of(String cluster) {
    return clusters.computeIfAbsent(cluster, name -> new ClusterAdmissions(name, ttl, gangTtl));
  }

  /**
   * The admissions of {@code cluster}, for deciding against {@code view}: on first use here (this
   * instance just took the cluster over, or started), the pods an earlier owner admitted and that
   * are still pending are held again first.
   */
  public ClusterAdmissions owned(
      String cluster,
      ClusterView view,
      QuotaOptions options,
      Set<String> excludedNamespaces,
      Instant now) {
    final ClusterAdmissions known = clusters.get(cluster);
    if (known != null) {
      return known;
    }
    return clusters.computeIfAbsent(
        cluster,
        name -> {
          final ClusterAdmissions admissions = new ClusterAdmissions(name, ttl, gangTtl);
          final int adopted =
              PendingAdoption.adopt(admissions, view, options, excludedNamespaces, now);
          if (adopted > 0) {
            LOG.info(
                "cluster={} taken over here: {} pending pods held in flight again", name, adopted);
          }
          return admissions;
        });
  }

  /** The admissions of {@code cluster} if any were made here. */
  public Optional<ClusterAdmissions> find(String cluster) {
    return Optional.ofNullable(clusters.get(cluster));
  }

  /**
   * Sweeps every cluster against {@code reader}'s state; never throws. A cluster whose state cannot
   * be read now (a rebalance) keeps its holds: the plugin may be answering from the cluster's last
   * state, which does not know of them.
   */
  public void sweep(ClusterStateReader reader, Clock clock) {
    sweep(reader, clock, peer -> true);
  }

  /**
   * {@link #sweep(ClusterStateReader, Clock)}, keeping the holds of a cluster held elsewhere while
   * this instance answers for it (issue 40.10): its owner is not {@code reachable} from here, or
   * this instance decided for it less than {@link #ANSWERING} ago (requests forwarded here by
   * instances that cannot reach the owner, this one keeping the cluster's standby). Its answers
   * must count what it admitted until the owner is back or another instance takes the cluster over;
   * the holds still expire.
   */
  public void sweep(ClusterStateReader reader, Clock clock, Predicate<Ownership.Remote> reachable) {
    for (final ClusterAdmissions admissions : clusters.values()) {
      final String cluster = admissions.cluster();
      try {
        final Ownership owner = reader.owner(cluster);
        if (owner instanceof Ownership.Unavailable) {
          continue;
        }
        if (owner instanceof Ownership.Remote remote) {
          if (!reachable.test(remote)
              || admissions.lastDecided().isAfter(clock.instant().minus(ANSWERING))) {
            if (admissions.expire(clock.instant()) == 0) {
              clusters.remove(cluster, admissions);
            }
            continue;
          }
          clusters.remove(cluster, admissions);
          LOG.info(
              "cluster={} moved away; its {} in-flight holds are dropped",
              cluster,
              admissions.held());
          continue;
        }
        final Optional<ClusterView> view = reader.cluster(cluster);
        if (view.isEmpty()) {
          // Unknown here now: a task restoring after a rebalance reads so for a while, as does a
          // cluster that is gone. Its holds still stand until their time to live.
          if (admissions.expire(clock.instant()) == 0) {
            clusters.remove(cluster, admissions);
          }
          continue;
        }
        admissions.sweep(view.get(), clock.instant());
      } catch (StateUnavailableException e) {
        LOG.debug("cluster={} not readable for the sweep: {}", cluster, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("cluster={} in-flight hold sweep failed", cluster, e);
      }
    }
  }
}

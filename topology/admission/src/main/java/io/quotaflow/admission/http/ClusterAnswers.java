package io.quotaflow.admission.http;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.http.peers.StandbyForwarding;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.admission.state.StateUnavailableException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides where a door's request for a cluster is answered: here when this instance holds the
 * cluster, by the owning instance otherwise; when neither can read the state, from the last state
 * read here if it is young enough (stating its staleness), else by the failure policy. No exception
 * leaves it: an unexpected one is logged with a correlation id and answered per the failure policy.
 */
final class ClusterAnswers {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterAnswers.class);

  private final PluginConfig config;
  private final ClusterStateReader reader;
  private final Forwarder forwarder;
  private final StandbyForwarding standbys;
  private final LastKnownState lastKnown;
  private final StalenessMetrics staleness;

  ClusterAnswers(
      PluginConfig config,
      ClusterStateReader reader,
      Forwarder forwarder,
      LastKnownState lastKnown,
      StalenessMetrics staleness) {
    this.config = config;
    this.reader = reader;
    this.forwarder = forwarder;
    this.standbys = new StandbyForwarding(reader, forwarder);
    this.lastKnown = lastKnown;
    this.staleness = staleness;
  }

  /**
   * The answer of {@code endpoint} for {@code cluster}; {@code moded}: whether {@code
   * admission.mode=off} lets the request through unchecked.
   */
  <T> Answer answer(ClusterEndpoint<T> endpoint, String cluster, Call call, boolean moded) {
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
        if (answer.headers().containsKey(Forwarder.UNDECIDED_HEADER)
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
    return call.forwarded() ? unknown.withHeader(Forwarder.UNDECIDED_HEADER, "true") : unknown;
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
    return call.forwarded() ? answer.withHeader(Forwarder.UNDECIDED_HEADER, "true") : answer;
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
}

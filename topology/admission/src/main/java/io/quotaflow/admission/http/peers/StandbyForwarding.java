package io.quotaflow.admission.http.peers;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.Call;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.StateUnavailableException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the instances that keep a standby replica of a cluster when its owner does not answer and
 * this instance keeps no copy of it (issue 40.10; three or more instances, where the standby lives
 * on one of the others). The standby answers the forwarded request from its copy, stating its
 * staleness, and holds what it admits, so that every instance's reviews for the cluster are held in
 * one place until the standby is promoted. An answer it marks undecided (no young enough copy there
 * either) is not taken.
 */
public final class StandbyForwarding {

  private static final Logger LOG = LoggerFactory.getLogger(StandbyForwarding.class);

  private final ClusterStateReader reader;
  private final Forwarder forwarder;

  public StandbyForwarding(ClusterStateReader reader, Forwarder forwarder) {
    this.reader = reader;
    this.forwarder = forwarder;
  }

  /** The first decided answer of a standby of {@code cluster} to {@code call}, if any gives one. */
  public Optional<Answer> ask(String cluster, Call call) {
    final List<Ownership.Remote> standbys;
    try {
      standbys = reader.standbyHosts(cluster);
    } catch (StateUnavailableException | IllegalStateException e) {
      return Optional.empty();
    }
    for (final Ownership.Remote standby : standbys) {
      try {
        final Answer answer = forwarder.forward(standby, call);
        if (!answer.headers().containsKey(Forwarder.UNDECIDED_HEADER)) {
          return Optional.of(answer);
        }
      } catch (Forwarder.ForwardingException e) {
        LOG.warn("cluster={} standby: {}", cluster, e.getMessage());
      }
    }
    return Optional.empty();
  }
}

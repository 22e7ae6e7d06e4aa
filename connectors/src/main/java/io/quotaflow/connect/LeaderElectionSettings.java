package io.quotaflow.connect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How the connector replicas elect their leader on a Lease: its name and namespace (empty: the
 * client's), and fabric8's timing. The timing must satisfy what the election relies on: the lease
 * outlasts the renew deadline, so a leader that cannot renew stops before another takes over; and
 * the renew deadline leaves room for more than one renewal attempt.
 *
 * @param leaseName name of the Lease
 * @param leaseNamespace namespace of the Lease; empty for the client's namespace
 * @param leaseDuration how long an unrenewed lease holds
 * @param renewDeadline how long the leader tries to renew before it gives up leading
 * @param retryPeriod how often renewal and acquisition are tried
 */
public record LeaderElectionSettings(
    String leaseName,
    String leaseNamespace,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {

  /** fabric8's jitter on the retry period: a renewal may come this much later. */
  static final double JITTER_FACTOR = 1.2;

  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  /**
   * Checks the settings against each other.
   *
   * @throws IllegalArgumentException naming every setting that does not fit
   */
  public LeaderElectionSettings {
    objectName(Objects.requireNonNull(leaseName, "leaseName"));
    namespaceOrEmpty(Objects.requireNonNull(leaseNamespace, "leaseNamespace"));
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    final List<String> problems = new ArrayList<>();
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      problems.add(
          ConnectSettings.LEADER_ELECTION_LEASE_DURATION.key()
              + " ("
              + leaseDuration
              + ") must be longer than "
              + ConnectSettings.LEADER_ELECTION_RENEW_DEADLINE.key()
              + " ("
              + renewDeadline
              + ")");
    }
    if (renewDeadline.toMillis() <= JITTER_FACTOR * retryPeriod.toMillis()) {
      problems.add(
          ConnectSettings.LEADER_ELECTION_RENEW_DEADLINE.key()
              + " ("
              + renewDeadline
              + ") must be longer than "
              + JITTER_FACTOR
              + " times "
              + ConnectSettings.LEADER_ELECTION_RETRY_PERIOD.key()
              + " ("
              + retryPeriod
              + ")");
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid leader election settings: " + String.join("; ", problems));
    }
  }

  /** The namespace of the Lease, when one is configured. */
  public Optional<String> namespace() {
    return leaseNamespace.isEmpty() ? Optional.empty() : Optional.of(leaseNamespace);
  }

  /** A Kubernetes object name (a DNS subdomain name). */
  static String objectName(final String text) {
    if (text.length() > 253 || !DNS_SUBDOMAIN.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "expected a Kubernetes object name (lower-case letters, digits, '-' and '.')");
    }
    return text;
  }

  /** A namespace name (a DNS label), or empty. */
  static String namespaceOrEmpty(final String text) {
    if (!text.isEmpty() && (text.length() > 63 || !DNS_LABEL.matcher(text).matches())) {
      throw new IllegalArgumentException(
          "expected a namespace name (lower-case letters, digits and '-'), or empty");
    }
    return text;
  }
}

package io.quotaflow.topics;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The outcome of {@link TopicProvisioner#provision}: one {@link TopicCheck} per topic, in the order
 * the topics were given.
 */
public record ProvisioningReport(List<TopicCheck> checks) {
  /** Copies the checks. */
  public ProvisioningReport {
    checks = List.copyOf(checks);
  }

  /** Names of the topics that were created. */
  public List<String> created() {
    return names(TopicCheck.Status.CREATED);
  }

  /** Names of the topics that existed as expected. */
  public List<String> ok() {
    return names(TopicCheck.Status.OK);
  }

  /** Topics that exist but differ from the catalogue, with what differs. */
  public List<TopicCheck> mismatched() {
    return checks.stream().filter(check -> check.status() == TopicCheck.Status.MISMATCHED).toList();
  }

  /**
   * Topics usable as they are whose settings still differ from the catalogue's (an input topic
   * stamped by its producers rather than the broker), with what to change.
   */
  public List<TopicCheck> warned() {
    return checks.stream().filter(check -> !check.warnings().isEmpty()).toList();
  }

  /** True when every topic now exists as the catalogue asks. */
  public boolean allMatch() {
    return mismatched().isEmpty();
  }

  /** The check of one topic, if it was part of the run. */
  public Optional<TopicCheck> check(final String topic) {
    return checks.stream().filter(check -> check.topic().equals(topic)).findFirst();
  }

  private List<String> names(final TopicCheck.Status status) {
    return checks.stream()
        .filter(check -> check.status() == status)
        .map(TopicCheck::topic)
        .toList();
  }

  @Override
  public String toString() {
    return checks.stream().map(TopicCheck::toString).collect(Collectors.joining("; ", "[", "]"));
  }
}

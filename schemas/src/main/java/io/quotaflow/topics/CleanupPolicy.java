package io.quotaflow.topics;

import org.apache.kafka.common.config.TopicConfig;

/** How a topic discards old records. */
public enum CleanupPolicy {
  /** Keep the latest record per key; a null value (tombstone) removes the key. */
  COMPACT(TopicConfig.CLEANUP_POLICY_COMPACT),
  /** Drop records older than the topic's retention. */
  DELETE(TopicConfig.CLEANUP_POLICY_DELETE);

  private final String configValue;

  CleanupPolicy(final String configValue) {
    this.configValue = configValue;
  }

  /** The value of the topic config {@code cleanup.policy}. */
  public String configValue() {
    return configValue;
  }
}

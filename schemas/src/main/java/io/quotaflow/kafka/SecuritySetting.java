package io.quotaflow.kafka;

import java.util.Objects;

/**
 * One Kafka client setting that {@link KafkaSecurity} checks at start-up, and what it checks: the
 * catalogue the documentation's table is tested against.
 *
 * @param key the Kafka setting, e.g. {@code ssl.truststore.location}
 * @param check what is checked, in a sentence
 */
public record SecuritySetting(String key, String check) {

  /** Requires both parts. */
  public SecuritySetting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(check, "check");
  }
}

package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;

/** What a status writer left on an ElasticQuota, read back from the mock API server. */
final class WrittenStatus {

  private WrittenStatus() {}

  /** The object's {@code status.used}, or an empty map when it has none. */
  static Map<?, ?> used(final GenericKubernetesResource quota) {
    if (quota.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("used") instanceof Map<?, ?> used) {
      return used;
    }
    return Map.of();
  }
}

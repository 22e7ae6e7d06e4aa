package io.quotaflow.bench.peer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * Registers YARN's two mandatory resource types (memory and vcores) directly, so that creating a
 * {@code Resource} never starts YARN's XML configuration loading. That keeps the peer's run-time
 * classpath to three Hadoop jars with none of their transitive dependencies.
 */
final class YarnResourceTypes {

  private static boolean registered;

  private YarnResourceTypes() {}

  /** Idempotent. */
  static synchronized void register() {
    if (registered) {
      return;
    }
    final Map<String, ResourceInformation> types = new LinkedHashMap<>();
    types.put(ResourceInformation.MEMORY_URI, ResourceInformation.MEMORY_MB);
    types.put(ResourceInformation.VCORES_URI, ResourceInformation.VCORES);
    ResourceUtils.initializeResourcesFromResourceInformationMap(types);
    registered = true;
  }
}

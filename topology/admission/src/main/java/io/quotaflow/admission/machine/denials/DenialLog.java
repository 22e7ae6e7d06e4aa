package io.quotaflow.admission.machine.denials;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import java.util.Objects;

/**
 * Where the plugin writes the pods it turns away, so they outlive it: the engine's plugin writes
 * them to {@code denials.v1} ({@link KafkaDenialLog}), where the engine counts them in each group's
 * history (docs/semantics.md section 23). Writing never waits for Kafka: a denial is answered at
 * once, whatever becomes of its record.
 */
public interface DenialLog extends AutoCloseable {

  /** Writes nothing: a plugin without Kafka (tests, benches). */
  DenialLog NONE = entry -> {};

  /** Which endpoint turned the pod away. */
  enum Endpoint {
    WEBHOOK,
    FILTER
  }

  /**
   * One pod turned away.
   *
   * @param cluster its cluster
   * @param pod the pod
   * @param group the group it is charged to
   * @param reason the code of the first failing check
   * @param message what its creator was told
   * @param endpoint which endpoint refused it
   * @param request its request as judged (for a resize, the growth)
   */
  record Entry(
      String cluster,
      PodRef pod,
      String group,
      Reason reason,
      String message,
      Endpoint endpoint,
      ResourceList request) {

    public Entry {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(request, "request");
    }
  }

  /** Writes {@code entry}, or counts it lost; never blocks, never throws. */
  void write(Entry entry);

  @Override
  default void close() {}
}

package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.eviction.OverUse;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.quota.Quantities;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Tells on the ElasticQuota when its group becomes over-used (used above runtime in some dimension,
 * as the engine decides it: {@link OverUse}) and when it stops being so: a Warning {@code OverUsed}
 * with the dimensions and numbers, a Normal {@code NoLongerOverUsed}. Only changes are told, and
 * only once the object is there to tell it on; the runtimes of one flush are coalesced first, so a
 * group that goes over and back within one flush interval tells nothing. Used by the writer's
 * thread only.
 */
final class OverUseEvents {

  /** Reason of the Event when a group becomes over-used. */
  static final String OVER_USED = "OverUsed";

  /** Reason of the Event when a group stops being over-used. */
  static final String NO_LONGER_OVER_USED = "NoLongerOverUsed";

  private static final String ACTION = "CheckQuota";

  private final Map<QuotaKey, Optional<OverUse>> latest = new HashMap<>();
  private final Map<QuotaKey, Boolean> told = new HashMap<>();

  /** Takes a group's latest runtime. */
  void update(final QuotaKey key, final GroupRuntime value) {
    latest.put(key, OverUse.of(OutputRecords.status(key.getName(), value)));
  }

  /** Forgets a deleted group. */
  void forget(final QuotaKey key) {
    latest.remove(key);
    told.remove(key);
  }

  /** Emits an Event on {@code quota} if the group's over-use changed since it was last told. */
  void report(
      final QuotaKey key, final GenericKubernetesResource quota, final EventRecorder events) {
    final Optional<OverUse> over = latest.get(key);
    if (over == null) {
      return;
    }
    final boolean was = told.getOrDefault(key, false);
    told.put(key, over.isPresent());
    if (over.isPresent() && !was) {
      events.record(
          reference(quota), EventRecorder.Type.WARNING, OVER_USED, ACTION, note(over.get()));
    } else if (over.isEmpty() && was) {
      events.record(
          reference(quota),
          EventRecorder.Type.NORMAL,
          NO_LONGER_OVER_USED,
          ACTION,
          "group " + key.getName() + " no longer uses more than its runtime");
    }
  }

  /** {@code group team-a uses more than its runtime in cpu (used 12, runtime 10), ...}. */
  static String note(final OverUse over) {
    return "group "
        + over.group()
        + " uses more than its runtime in "
        + over.overDimensions().stream()
            .map(
                dimension ->
                    dimension
                        + " (used "
                        + Quantities.format(dimension, over.used().get(dimension))
                        + ", runtime "
                        + Quantities.format(dimension, over.runtime().get(dimension))
                        + ")")
            .collect(Collectors.joining(", "));
  }

  static ObjectReference reference(final GenericKubernetesResource quota) {
    // Objects from an informer's list may lack apiVersion and kind.
    return new ObjectReferenceBuilder(EventRecorder.reference(quota))
        .withApiVersion(ElasticQuotaApi.API_VERSION)
        .withKind(ElasticQuotaApi.KIND)
        .build();
  }
}

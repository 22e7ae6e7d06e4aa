package io.quotaflow.evict;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.schemas.EvictionCommand;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's Events in one cluster: on the ElasticQuota when reclaim starts for its group (the
 * first command for the group, or the first after {@link #QUIET} without one), and on each pod just
 * before it is evicted, with the command's reason.
 *
 * <p>A dry run emits them too, as Normal Events with their own reasons ({@code ReclaimDryRun},
 * {@code EvictionDryRun}) and a note that starts with "dry run:", so a trial on a real cluster
 * shows in {@code kubectl describe} what quotaflow would do without raising Warnings.
 */
final class ReclaimEvents {

  /** A group's reclaim is new again after this long without a command for it. */
  static final Duration QUIET = Duration.ofMinutes(10);

  static final String RECLAIM_STARTED = "ReclaimStarted";
  static final String RECLAIM_DRY_RUN = "ReclaimDryRun";
  static final String EVICTING = "Evicting";
  static final String EVICTION_DRY_RUN = "EvictionDryRun";

  private static final Logger LOG = LoggerFactory.getLogger(ReclaimEvents.class);

  private final KubernetesClient client;
  private final EventRecorder recorder;
  private final boolean dryRun;
  private final Clock clock;
  private final Map<String, Instant> lastCommand = new HashMap<>();

  ReclaimEvents(
      final KubernetesClient client,
      final EventRecorder recorder,
      final boolean dryRun,
      final Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.recorder = Objects.requireNonNull(recorder, "recorder");
    this.dryRun = dryRun;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A command of {@code group} is about to be carried out: tells when reclaim starts. */
  void commandFor(final EvictionCommand command) {
    final Instant now = clock.instant();
    final Instant last = lastCommand.put(command.getGroup(), now);
    if (!recorder.enabled() || (last != null && !now.isAfter(last.plus(QUIET)))) {
      return;
    }
    quota(command.getGroup())
        .ifPresent(
            quota ->
                recorder.record(
                    new ObjectReferenceBuilder(EventRecorder.reference(quota))
                        .withApiVersion(ElasticQuotaApi.API_VERSION)
                        .withKind(ElasticQuotaApi.KIND)
                        .build(),
                    EventRecorder.Type.NORMAL,
                    dryRun ? RECLAIM_DRY_RUN : RECLAIM_STARTED,
                    "Reclaim",
                    (dryRun ? "dry run: nothing is evicted; " : "")
                        + "quotaflow starts evicting pods of group "
                        + command.getGroup()
                        + " to bring its used back within its runtime"
                        + (command.getDimensionsOver().isEmpty()
                            ? ""
                            : " (over in "
                                + String.join(", ", command.getDimensionsOver())
                                + ")")));
  }

  /** {@code pod} (the uid the command names) is about to be evicted, or would be in a dry run. */
  void beforeEviction(final Pod pod, final EvictionCommand command) {
    final String reason = command.getReason().isBlank() ? "" : ": " + command.getReason();
    recorder.record(
        EventRecorder.reference(pod),
        dryRun ? EventRecorder.Type.NORMAL : EventRecorder.Type.WARNING,
        dryRun ? EVICTION_DRY_RUN : EVICTING,
        "Evict",
        (dryRun ? "dry run: the pod is not evicted; quotaflow would evict it" : "quotaflow evicts")
            + " the pod to reclaim quota for group "
            + command.getGroup()
            + reason);
  }

  /** The group's ElasticQuota (the first namespace wins, as in the source), if it can be read. */
  private Optional<GenericKubernetesResource> quota(final String group) {
    try {
      return client
          .genericKubernetesResources(ElasticQuotas.CONTEXT)
          .inAnyNamespace()
          .withField("metadata.name", group)
          .list()
          .getItems()
          .stream()
          .filter(quota -> group.equals(quota.getMetadata().getName()))
          .min(Comparator.comparing(quota -> quota.getMetadata().getNamespace()));
    } catch (KubernetesClientException e) {
      LOG.debug(
          "no reclaim Event for group {}: reading its ElasticQuota failed: {}",
          group,
          e.getMessage());
      return Optional.empty();
    }
  }
}

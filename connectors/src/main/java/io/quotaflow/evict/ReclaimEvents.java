package io.quotaflow.evict;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.engine.reclaim.EvictionReasons;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.reason.Reason;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
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
 * The executor's Events in one cluster: on the ElasticQuota when reclaim starts for its over-used
 * group (the first such command for the group, or the first after {@link #QUIET} without one); on
 * each pod just before it is evicted, whose Event reason is the command's reason code ({@code
 * reclaimed-after-delay}, {@code node-reserved}: docs/semantics.md section 19) and whose note is
 * the command's readable reason; and on a pod whose disruption budget kept refusing ({@code
 * blocked-by-budget}).
 *
 * <p>A dry run emits them too, as Normal Events (the quota's with its own reason {@code
 * ReclaimDryRun}) with a note that starts with "dry run:", so a trial on a real cluster shows in
 * {@code kubectl describe} what quotaflow would do without raising Warnings.
 */
final class ReclaimEvents {

  /** A group's reclaim is new again after this long without a command for it. */
  static final Duration QUIET = Duration.ofMinutes(10);

  static final String RECLAIM_STARTED = "ReclaimStarted";
  static final String RECLAIM_DRY_RUN = "ReclaimDryRun";
  private static final String EVICT = "Evict";

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

  /**
   * A command of {@code group} is about to be carried out: tells when reclaim starts. A command
   * that frees a reserved node says nothing of its group's use, so it starts no reclaim.
   */
  void commandFor(final EvictionCommand command) {
    if (!Reason.RECLAIMED_AFTER_DELAY.code().equals(EvictionReasons.of(command))) {
      return;
    }
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
    final String code = EvictionReasons.of(command);
    // Only a reclaim takes quota back; a reserved node's intruder leaves for another group.
    final String purpose =
        Reason.RECLAIMED_AFTER_DELAY.code().equals(code)
            ? " the pod to reclaim quota for group "
            : " the pod of group ";
    final String reason = command.getReason().isBlank() ? "" : ": " + command.getReason();
    recorder.record(
        EventRecorder.reference(pod),
        dryRun ? EventRecorder.Type.NORMAL : EventRecorder.Type.WARNING,
        code,
        EVICT,
        (dryRun ? "dry run: the pod is not evicted; quotaflow would evict it" : "quotaflow evicts")
            + purpose
            + command.getGroup()
            + reason);
  }

  /** A disruption budget refused every eviction request for {@code pod}: {@code why}. */
  void blockedByBudget(final Pod pod, final EvictionCommand command, final String why) {
    recorder.record(
        EventRecorder.reference(pod),
        EventRecorder.Type.WARNING,
        EvictionReasons.ofResult(command, EvictionOutcome.BLOCKED_BY_BUDGET),
        EVICT,
        "quotaflow could not evict the pod ("
            + EvictionReasons.of(command)
            + ", group "
            + command.getGroup()
            + "): "
            + why);
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

package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.schemas.QuotaKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells that another writer keeps changing what the status writer writes ({@link StatusConflicts}):
 * a Warning {@code StatusOverwritten} on the ElasticQuota each time it enters conflict or its wait
 * grows (the Event recorder folds repeats into one series), naming the other field manager when the
 * API server tells it; a Normal {@code StatusNoLongerOverwritten} when a retry stood. Logs a
 * warning when an object enters conflict and at most one per {@link #LOG_EVERY} per object while it
 * stays. Used by the writer's thread only.
 */
final class ConflictAlerts {

  /** Reason of the Event when an object enters conflict, or its wait grows. */
  static final String OVERWRITTEN = "StatusOverwritten";

  /** Reason of the Event when a retry write stood. */
  static final String NO_LONGER_OVERWRITTEN = "StatusNoLongerOverwritten";

  /** How often an object still in conflict is logged at WARN. */
  static final Duration LOG_EVERY = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(ConflictAlerts.class);
  private static final String ACTION = "WriteStatus";

  private final ConflictSettings settings;
  private final Clock clock;
  private final Map<QuotaKey, Instant> warned = new HashMap<>();

  ConflictAlerts(final ConflictSettings settings, final Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Tells of an overwrite: logged, and on the object when it is in conflict. */
  void overwritten(
      final QuotaKey key,
      final GenericKubernetesResource quota,
      final StatusConflicts.Overwrite overwrite,
      final EventRecorder events) {
    if (!overwrite.conflict()) {
      LOG.debug(
          "cluster {}: group {}: {} changed by {} after quotaflow wrote them ({} of {} within {})",
          key.getCluster(),
          key.getName(),
          overwrite.fields(),
          writer(overwrite),
          overwrite.recent(),
          settings.overwrites(),
          settings.window());
      return;
    }
    final String note = note(key, overwrite, settings);
    events.record(
        OverUseEvents.reference(quota), EventRecorder.Type.WARNING, OVERWRITTEN, ACTION, note);
    final Instant now = clock.instant();
    final Instant last = warned.get(key);
    if (overwrite.entered() || last == null || !now.isBefore(last.plus(LOG_EVERY))) {
      warned.put(key, now);
      LOG.warn("cluster {}: {}", key.getCluster(), note);
    } else {
      LOG.debug("cluster {}: {}", key.getCluster(), note);
    }
  }

  /** Tells that a retry stood: the object is written again as usual. */
  void ended(
      final QuotaKey key, final GenericKubernetesResource quota, final EventRecorder events) {
    warned.remove(key);
    final String note =
        "quotaflow's status of group "
            + key.getName()
            + " stood for "
            + settings.backoff()
            + " after a retry: no other writer changes it now, and quotaflow writes it as usual";
    events.record(
        OverUseEvents.reference(quota),
        EventRecorder.Type.NORMAL,
        NO_LONGER_OVERWRITTEN,
        ACTION,
        note);
    LOG.info("cluster {}: {}", key.getCluster(), note);
  }

  /** Forgets a deleted group. */
  void forget(final QuotaKey key) {
    warned.remove(key);
  }

  /**
   * {@code quotaflow's status of group team-a (metadata.annotations.quota...runtime) was changed by
   * koord-scheduler after quotaflow wrote it, 3 times within PT5M: ...}.
   */
  static String note(
      final QuotaKey key,
      final StatusConflicts.Overwrite overwrite,
      final ConflictSettings settings) {
    final String how =
        overwrite.entered()
            ? overwrite.recent() + " times within " + settings.window()
            : "again after a retry";
    return "quotaflow's status of group "
        + key.getName()
        + " "
        + overwrite.fields()
        + " was changed by "
        + writer(overwrite)
        + " after quotaflow wrote it, "
        + how
        + ": quotaflow stops writing it for "
        + overwrite.holdFor()
        + ", then tries again. Another controller writes the same fields: is Koordinator's"
        + " ElasticQuota controller still on? (docs/migrating-from-koordinator.md)";
  }

  private static String writer(final StatusConflicts.Overwrite overwrite) {
    return overwrite.managers().isEmpty()
        ? "another writer (the API server names no field manager)"
        : "field manager " + String.join(", ", overwrite.managers());
  }
}

package io.quotaflow.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.cluster.TokenBucket;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits {@code events.k8s.io/v1} Events about the objects of one cluster, as Kubernetes' own event
 * recorder does, with its two protections against floods:
 *
 * <ul>
 *   <li><b>Series.</b> An Event like one emitted for the same object within {@link #SERIES_WINDOW}
 *       (same type, reason and action) is not created again: the first one's {@code series} (count
 *       and last observed time) and note are updated by a merge patch.
 *   <li><b>Rate limit per object.</b> Each involved object has a token bucket ({@link
 *       EventSettings#perObjectBurst()}, then {@link EventSettings#perObjectPerMinute()}); an Event
 *       without a token is dropped (counted), never waited for. A dropped repetition still counts
 *       in its series, so the next update shows the true count.
 * </ul>
 *
 * <p>Events are informative: a failed request is counted and logged, never passed to the caller.
 * Both maps are bounded (least recently used entries go first). Not thread-safe beyond its own
 * lock: each connector thread owns its recorders.
 */
public final class EventRecorder {

  /** The API group of the Events written, {@code events.k8s.io/v1}. */
  public static final String API_GROUP = "events.k8s.io";

  /** The resource written. */
  public static final String RESOURCE = "events";

  /** The verbs used: create an Event, patch the series of one. RBAC must grant both. */
  public static final List<String> VERBS = List.of("create", "patch");

  /** How long a repeated Event joins the series of the first, as in Kubernetes' recorder. */
  public static final Duration SERIES_WINDOW = Duration.ofMinutes(6);

  /** Normal or Warning, the two types Kubernetes accepts. */
  public enum Type {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String value;

    Type(final String value) {
      this.value = value;
    }

    /** As the API writes it. */
    public String value() {
      return value;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);
  private static final int MAX_TRACKED = 4096;
  private static final int MAX_NOTE = 1024;
  private static final int MAX_NAME = 253;
  private static final int MAX_INSTANCE = 128;

  private final String cluster;
  private final KubernetesClient client;
  private final String controller;
  private final String instance;
  private final EventSettings settings;
  private final Clock clock;
  private final MeterRegistry registry;
  private final Map<String, TokenBucket> buckets = lru();
  private final Map<SeriesKey, Series> series = lru();
  private int sequence;

  private record SeriesKey(String object, String type, String reason, String action) {}

  /** The first Event of a series and what has been seen of it since. */
  private static final class Series {
    private final String namespace;
    private String name;
    private int count = 1;
    private Instant lastObserved;

    private Series(final String namespace, final String name, final Instant at) {
      this.namespace = namespace;
      this.name = name;
      this.lastObserved = at;
    }
  }

  /**
   * @param cluster the cluster name, for logs and meters
   * @param client where the Events go
   * @param controller the reporting controller, a qualified name ({@code
   *     quotaflow.io/status-writer})
   * @param settings on or off, and the rate per object
   * @param clock event times, series windows and the rate limit
   * @param registry where the counters go
   */
  public EventRecorder(
      final String cluster,
      final KubernetesClient client,
      final String controller,
      final EventSettings settings,
      final Clock clock,
      final MeterRegistry registry) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.client = Objects.requireNonNull(client, "client");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.registry = Objects.requireNonNull(registry, "registry");
    final String host = GroupMembership.instanceName();
    final String full = controller + "-" + host;
    this.instance = full.length() > MAX_INSTANCE ? full.substring(0, MAX_INSTANCE) : full;
  }

  /** A reference to a namespaced object, as an Event's {@code regarding}. */
  public static ObjectReference reference(final HasMetadata object) {
    return new ObjectReferenceBuilder()
        .withApiVersion(object.getApiVersion())
        .withKind(object.getKind())
        .withNamespace(object.getMetadata().getNamespace())
        .withName(object.getMetadata().getName())
        .withUid(object.getMetadata().getUid())
        .withResourceVersion(object.getMetadata().getResourceVersion())
        .build();
  }

  /** Whether Events are emitted at all. */
  public boolean enabled() {
    return settings.enabled();
  }

  /**
   * Emits an Event about {@code regarding} (a namespaced object), or adds it to the series of a
   * like one, unless the object's rate limit drops it.
   *
   * @param regarding the object the Event is about
   * @param type Normal or Warning
   * @param reason why, in UpperCamelCase ({@code OverUsed})
   * @param action what was done or seen, in UpperCamelCase ({@code Evict})
   * @param note for people; cut at 1 KiB
   */
  public synchronized void record(
      final ObjectReference regarding,
      final Type type,
      final String reason,
      final String action,
      final String note) {
    if (!settings.enabled()) {
      return;
    }
    final Instant now = clock.instant();
    final String object =
        regarding.getKind() + "/" + regarding.getNamespace() + "/" + regarding.getName();
    final SeriesKey key = new SeriesKey(object, type.value(), reason, action);
    final Series repeated = series.get(key);
    final boolean inSeries =
        repeated != null && !now.isAfter(repeated.lastObserved.plus(SERIES_WINDOW));
    if (inSeries) {
      repeated.count++;
      repeated.lastObserved = now;
    }
    if (!buckets.computeIfAbsent(object, ignored -> bucket()).tryAcquire()) {
      count(reason, "dropped");
      LOG.debug("cluster {}: Event {} on {} dropped by the rate limit", cluster, reason, object);
      return;
    }
    final String text = note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE - 3) + "..." : note;
    try {
      if (inSeries && updateSeries(repeated, text)) {
        count(reason, "series");
        return;
      }
      final Event created = create(regarding, type, reason, action, text, now);
      series.put(
          key,
          new Series(created.getMetadata().getNamespace(), created.getMetadata().getName(), now));
      count(reason, "created");
      LOG.debug("cluster {}: Event {} on {}: {}", cluster, reason, object, text);
    } catch (KubernetesClientException e) {
      count(reason, "failed");
      LOG.warn(
          "cluster {}: emitting Event {} on {} failed: {}",
          cluster,
          reason,
          object,
          e.getMessage());
    }
  }

  /** Patches the series of the first Event; false when that Event is gone (expired). */
  private boolean updateSeries(final Series repeated, final String note) {
    final String patch =
        json(
            Map.of(
                "note",
                note,
                "series",
                Map.of(
                    "count",
                    repeated.count,
                    "lastObservedTime",
                    MICRO_TIME.format(repeated.lastObserved))));
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(repeated.namespace)
          .withName(repeated.name)
          .patch(MERGE, patch);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  private Event create(
      final ObjectReference regarding,
      final Type type,
      final String reason,
      final String action,
      final String note,
      final Instant now) {
    // Time and a sequence: two Events in the same instant (a coarse clock) still differ.
    final String suffix =
        "."
            + Long.toHexString(now.getEpochSecond() * 1_000_000_000L + now.getNano())
            + Integer.toHexString(sequence++ & 0xfff);
    final String base = regarding.getName();
    final String name =
        (base.length() + suffix.length() > MAX_NAME
                ? base.substring(0, MAX_NAME - suffix.length())
                : base)
            + suffix;
    final Event event =
        new EventBuilder()
            .withNewMetadata()
            .withNamespace(regarding.getNamespace())
            .withName(name)
            .endMetadata()
            .withRegarding(regarding)
            .withType(type.value())
            .withReason(reason)
            .withAction(action)
            .withNote(note)
            .withEventTime(new MicroTime(MICRO_TIME.format(now)))
            .withReportingController(controller)
            .withReportingInstance(instance)
            .build();
    return client
        .events()
        .v1()
        .events()
        .inNamespace(regarding.getNamespace())
        .resource(event)
        .create();
  }

  private TokenBucket bucket() {
    return new TokenBucket(
        settings.perObjectPerMinute() / 60.0,
        settings.perObjectBurst(),
        clock,
        // Never used: the recorder only takes tokens that are there.
        Sleeper.SYSTEM);
  }

  private void count(final String reason, final String outcome) {
    Counter.builder("quotaflow.events")
        .tags("cluster", cluster, "reason", reason, "outcome", outcome)
        .register(registry)
        .increment();
  }

  private static String json(final Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static <K, V> Map<K, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(final Map.Entry<K, V> eldest) {
        return size() > MAX_TRACKED;
      }
    };
  }
}

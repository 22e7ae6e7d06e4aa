package io.quotaflow.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.engine.convert.ReservationRecords;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.Quantities;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.simulate.StatusJson;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What quotaflow shows on an ElasticQuota, in Koordinator's format: the annotations {@code
 * quota.scheduling.koordinator.sh/runtime}, {@code .../request}, {@code
 * .../non-preemptible-request} and {@code .../non-preemptible-used} (JSON resource lists of
 * Kubernetes quantity strings, names sorted, as Go's encoding of a {@code ResourceList}) and {@code
 * status.used}; and quotaflow's {@code quotaflow.io/reservation-status} for a group with a node
 * reservation (the JSON of {@code simulate}'s {@code quotas[].reservation}), removed once the group
 * has none. Pure.
 *
 * @param runtime the runtime annotation's value
 * @param request the request annotation's value
 * @param nonPreemptibleRequest the non-preemptible-request annotation's value
 * @param nonPreemptibleUsed the non-preemptible-used annotation's value
 * @param used status.used, quantity strings by resource name
 * @param reservation the reservation-status annotation's value; empty for a group without
 *     reservation
 * @param guaranteed Koordinator's {@code quota.scheduling.koordinator.sh/guaranteed} annotation's
 *     value, written in Koordinator's status mode; empty unless the guarantee of allocated usage is
 *     on (docs/semantics.md section 17)
 */
public record QuotaStatus(
    String runtime,
    String request,
    String nonPreemptibleRequest,
    String nonPreemptibleUsed,
    SortedMap<String, String> used,
    Optional<String> reservation,
    Optional<String> guaranteed) {

  /** Koordinator's annotation for the group's runtime. */
  public static final String RUNTIME_ANNOTATION = QuotaLabels.KOORDINATOR_PREFIX + "runtime";

  /** Koordinator's annotation for the group's request. */
  public static final String REQUEST_ANNOTATION = QuotaLabels.KOORDINATOR_PREFIX + "request";

  /** Koordinator's annotation for what the group's non-preemptible pods request. */
  public static final String NON_PREEMPTIBLE_REQUEST_ANNOTATION =
      QuotaLabels.KOORDINATOR_PREFIX + "non-preemptible-request";

  /** Koordinator's annotation for what the group's non-preemptible pods use. */
  public static final String NON_PREEMPTIBLE_USED_ANNOTATION =
      QuotaLabels.KOORDINATOR_PREFIX + "non-preemptible-used";

  /** quotaflow's annotation for the group's node reservation: locked nodes, satisfied, idle. */
  public static final String RESERVATION_STATUS_ANNOTATION = QuotaLabels.RESERVATION_STATUS;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Requires every part; keeps an unmodifiable copy of {@code used}. */
  public QuotaStatus {
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(nonPreemptibleRequest, "nonPreemptibleRequest");
    Objects.requireNonNull(nonPreemptibleUsed, "nonPreemptibleUsed");
    used = Collections.unmodifiableSortedMap(new TreeMap<>(used));
    Objects.requireNonNull(reservation, "reservation");
    Objects.requireNonNull(guaranteed, "guaranteed");
  }

  /** A status without guaranteed amount. */
  public QuotaStatus(
      String runtime,
      String request,
      String nonPreemptibleRequest,
      String nonPreemptibleUsed,
      SortedMap<String, String> used,
      Optional<String> reservation) {
    this(
        runtime,
        request,
        nonPreemptibleRequest,
        nonPreemptibleUsed,
        used,
        reservation,
        Optional.empty());
  }

  /** The status of a group as the engine computed it. */
  public static QuotaStatus of(final GroupRuntime group) {
    return new QuotaStatus(
        json(quantities(group.getRuntime())),
        json(quantities(group.getRequest())),
        json(quantities(group.getNonPreemptibleRequest())),
        json(quantities(group.getNonPreemptibleUsed())),
        quantities(group.getUsed()),
        group
            .getReservation()
            .map(ReservationRecords::status)
            .map(StatusJson::reservation)
            .map(QuotaStatus::json),
        group.getGuaranteed().isEmpty()
            ? Optional.empty()
            : Optional.of(json(quantities(group.getGuaranteed()))));
  }

  /** Whether the object already shows Koordinator's annotations as this status has them. */
  public boolean annotationsShownBy(final GenericKubernetesResource quota) {
    return annotationsShownBy(quota, StatusMode.KOORDINATOR);
  }

  /**
   * Whether the object already shows the two annotations of {@code mode} as this status has them.
   */
  public boolean annotationsShownBy(final GenericKubernetesResource quota, final StatusMode mode) {
    final Map<String, String> annotations = quota.getMetadata().getAnnotations();
    return annotations != null
        && annotations(mode).equals(subset(annotations, mode))
        && (reservation.isPresent() || !showsReservation(quota))
        && !showsStaleGuaranteed(quota, mode);
  }

  /**
   * Whether the object shows Koordinator's guaranteed annotation that this status, written in
   * Koordinator's mode, no longer has (guaranteed usage was turned off).
   */
  private boolean showsStaleGuaranteed(
      final GenericKubernetesResource quota, final StatusMode mode) {
    final Map<String, String> annotations = quota.getMetadata().getAnnotations();
    return mode == StatusMode.KOORDINATOR
        && guaranteed.isEmpty()
        && annotations != null
        && annotations.get(QuotaLabels.GUARANTEED) != null;
  }

  /** Whether the object shows a reservation-status annotation (a null value counts as none). */
  private static boolean showsReservation(final GenericKubernetesResource quota) {
    final Map<String, String> annotations = quota.getMetadata().getAnnotations();
    return annotations != null && annotations.get(RESERVATION_STATUS_ANNOTATION) != null;
  }

  /** Koordinator's annotations, by name. */
  public Map<String, String> annotations() {
    return annotations(StatusMode.KOORDINATOR);
  }

  /**
   * The annotations {@code mode} writes, by name: Koordinator's four, or quotaflow's runtime and
   * request in shadow.
   */
  public Map<String, String> annotations(final StatusMode mode) {
    final Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(mode.runtimeAnnotation(), runtime);
    annotations.put(mode.requestAnnotation(), request);
    if (mode == StatusMode.KOORDINATOR) {
      annotations.put(NON_PREEMPTIBLE_REQUEST_ANNOTATION, nonPreemptibleRequest);
      annotations.put(NON_PREEMPTIBLE_USED_ANNOTATION, nonPreemptibleUsed);
      guaranteed.ifPresent(value -> annotations.put(QuotaLabels.GUARANTEED, value));
    }
    // quotaflow's own annotation: written in either mode.
    reservation.ifPresent(value -> annotations.put(RESERVATION_STATUS_ANNOTATION, value));
    return Collections.unmodifiableMap(annotations);
  }

  private Map<String, String> subset(final Map<String, String> annotations, final StatusMode mode) {
    final Map<String, String> subset = new LinkedHashMap<>();
    for (final String name : annotations(mode).keySet()) {
      subset.put(name, annotations.get(name));
    }
    return subset;
  }

  /**
   * The fields this status sets in {@code mode} that the object shows otherwise, as field paths
   * ({@code [metadata, annotations, NAME]}, {@code [status, used]}); empty when it shows them all.
   */
  public List<List<String>> fieldsNotShownBy(
      final GenericKubernetesResource quota, final StatusMode mode) {
    final List<List<String>> fields = new ArrayList<>();
    final Map<String, String> live = quota.getMetadata().getAnnotations();
    annotations(mode)
        .forEach(
            (name, value) -> {
              if (live == null || !value.equals(live.get(name))) {
                fields.add(List.of("metadata", "annotations", name));
              }
            });
    if (mode.writesStatus() && !usedShownBy(quota)) {
      fields.add(List.of("status", "used"));
    }
    return fields;
  }

  /** Whether the object's {@code status.used} already equals this status's. */
  public boolean usedShownBy(final GenericKubernetesResource quota) {
    return used.equals(liveUsed(quota));
  }

  /** A JSON merge patch that sets Koordinator's annotations. */
  public String annotationsPatch() {
    return annotationsPatch(StatusMode.KOORDINATOR);
  }

  /** A JSON merge patch that sets the annotations of {@code mode}, and no other. */
  public String annotationsPatch(final StatusMode mode) {
    return json(Map.of("metadata", Map.of("annotations", annotations(mode))));
  }

  /**
   * A JSON merge patch that sets the annotations of {@code mode} on {@code quota}, and removes its
   * reservation-status annotation when the group no longer reserves nodes and, in Koordinator's
   * mode, the guaranteed annotation when the group has no guaranteed amount any more.
   */
  public String annotationsPatch(final GenericKubernetesResource quota, final StatusMode mode) {
    return json(Map.of("metadata", Map.of("annotations", annotationChanges(quota, mode))));
  }

  private Map<String, String> annotationChanges(
      final GenericKubernetesResource quota, final StatusMode mode) {
    final Map<String, String> changes = new LinkedHashMap<>(annotations(mode));
    if (reservation.isEmpty() && showsReservation(quota)) {
      changes.put(RESERVATION_STATUS_ANNOTATION, null);
    }
    if (showsStaleGuaranteed(quota, mode)) {
      changes.put(QuotaLabels.GUARANTEED, null);
    }
    return changes;
  }

  /**
   * A JSON merge patch of the object itself, for a CRD without a status subresource
   * (Koordinator's): the annotations of {@code mode} when {@code annotations}, and {@code
   * status.used} as {@link #usedPatch} sets it when {@code used}.
   */
  public String objectPatch(
      final GenericKubernetesResource quota,
      final StatusMode mode,
      final boolean annotations,
      final boolean used) {
    final Map<String, Object> patch = new LinkedHashMap<>();
    if (annotations) {
      patch.put("metadata", Map.of("annotations", annotationChanges(quota, mode)));
    }
    if (used) {
      patch.put("status", Map.of("used", usedChanges(quota)));
    }
    return json(patch);
  }

  /**
   * A JSON merge patch of the status subresource that makes {@code status.used} equal this
   * status's: resources the object shows but this status lacks are set to null (removed).
   */
  public String usedPatch(final GenericKubernetesResource quota) {
    return json(Map.of("status", Map.of("used", usedChanges(quota))));
  }

  private Map<String, Object> usedChanges(final GenericKubernetesResource quota) {
    final Map<String, Object> changes = new TreeMap<>(used);
    liveUsed(quota).keySet().forEach(resource -> changes.putIfAbsent(resource, null));
    return changes;
  }

  /** {@code status.used} of the object as strings; entries without a value do not count. */
  private static SortedMap<String, String> liveUsed(final GenericKubernetesResource quota) {
    final SortedMap<String, String> live = new TreeMap<>();
    if (quota.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("used") instanceof Map<?, ?> used) {
      used.forEach(
          (resource, quantity) -> {
            if (resource != null && quantity != null) {
              live.put(resource.toString(), quantity.toString());
            }
          });
    }
    return live;
  }

  private static SortedMap<String, String> quantities(final Map<String, Long> amounts) {
    final SortedMap<String, String> formatted = new TreeMap<>();
    amounts.forEach(
        (resource, amount) -> formatted.put(resource, Quantities.format(resource, amount)));
    return formatted;
  }

  private static String json(final Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Per-group gauges of the groups this instance computes, shaped like Koordinator's {@code
 * elastic_quota_status} and {@code elastic_quota_spec} (same label names and units, the cluster in
 * place of the tree): {@value #STATUS} with field {@code runtime}, {@code request} and {@code
 * used}, {@value #SPEC} with field {@code min} and {@code max}, one series per group, field and
 * resource, in canonical units (cpu in millicores, memory in bytes). Exported as doubles, exact up
 * to 2^53.
 *
 * <p>At most {@code maxGroups} groups get gauges (the first ones seen; 0: none), so that 100,000
 * groups cannot flood Prometheus: {@value #OMITTED} counts the groups left out. Thread-safe.
 */
final class GroupGauges {

  /** Gauge of a group's computed amounts, tag {@code field}: runtime, request, used. */
  static final String STATUS = "quotaflow.elastic.quota.status";

  /** Gauge of a group's specification, tag {@code field}: min, max. */
  static final String SPEC = "quotaflow.elastic.quota.spec";

  /** Gauge of the groups without per-group gauges because of the cap. */
  static final String OMITTED = "quotaflow.engine.group.gauges.omitted";

  private static final Map<String, Function<GroupStatus, ResourceList>> STATUS_FIELDS =
      Map.of(
          "runtime", GroupStatus::runtime,
          "request", GroupStatus::request,
          "used", GroupStatus::used);

  private static final Map<String, Function<GroupStatus, ResourceList>> SPEC_FIELDS =
      Map.of("min", GroupStatus::min, "max", GroupStatus::max);

  private record GroupKey(String cluster, String name) {}

  /** One gauged group: its latest status, and the gauges registered for it. */
  private static final class Gauged {
    private volatile GroupStatus status;
    private final Map<String, Gauge> gauges = new HashMap<>();

    Gauged(final GroupStatus status) {
      this.status = status;
    }

    double value(final Function<GroupStatus, ResourceList> field, final String resource) {
      final ResourceList list = field.apply(status);
      return list.contains(resource) ? (double) list.get(resource) : Double.NaN;
    }
  }

  private final MeterRegistry registry;
  private final int maxGroups;
  private final Map<GroupKey, Gauged> gauged = new ConcurrentHashMap<>();
  private final Set<GroupKey> omitted = ConcurrentHashMap.newKeySet();

  GroupGauges(final MeterRegistry registry, final int maxGroups) {
    this.registry = registry;
    this.maxGroups = maxGroups;
    if (maxGroups > 0) {
      Gauge.builder(OMITTED, omitted, Set::size)
          .description("Quota groups without per-group gauges (metrics.group.gauges.max)")
          .register(registry);
    }
  }

  /** Notes new or changed statuses and removed groups of {@code cluster}. */
  void changed(final String cluster, final List<GroupStatus> changed, final List<String> removed) {
    if (maxGroups == 0) {
      return;
    }
    for (final String name : removed) {
      final GroupKey key = new GroupKey(cluster, name);
      omitted.remove(key);
      final Gauged group = gauged.remove(key);
      if (group != null) {
        unregister(group);
      }
    }
    for (final GroupStatus status : changed) {
      update(new GroupKey(cluster, status.name()), status);
    }
  }

  /** Removes every gauge of {@code cluster} (its task moved to another instance). */
  void released(final String cluster) {
    omitted.removeIf(key -> key.cluster().equals(cluster));
    gauged
        .entrySet()
        .removeIf(
            entry -> {
              if (!entry.getKey().cluster().equals(cluster)) {
                return false;
              }
              unregister(entry.getValue());
              return true;
            });
  }

  private void update(final GroupKey key, final GroupStatus status) {
    Gauged group = gauged.get(key);
    if (group == null) {
      synchronized (this) {
        group = gauged.get(key);
        if (group == null) {
          if (gauged.size() >= maxGroups) {
            omitted.add(key);
            return;
          }
          group = new Gauged(status);
          gauged.put(key, group);
        }
      }
    }
    synchronized (group) {
      final GroupStatus before = group.status;
      group.status = status;
      if (before != status && !sameLabels(before, status)) {
        // The parent is a label: a group moved in the tree gets new series.
        unregister(group);
      }
      register(key, group, status);
    }
  }

  /** Registers the gauges the status has values for; takes off those it no longer has. */
  private void register(final GroupKey key, final Gauged group, final GroupStatus status) {
    final Map<String, Gauge> wanted = new HashMap<>();
    final Tags tags =
        Tags.of(
            "cluster", key.cluster(),
            "name", key.name(),
            "parent", status.parent(),
            "is_parent", Boolean.toString(status.parentGroup()));
    series(STATUS, STATUS_FIELDS, status, tags, group, wanted);
    series(SPEC, SPEC_FIELDS, status, tags, group, wanted);
    final List<String> gone = new ArrayList<>();
    group.gauges.forEach(
        (id, gauge) -> {
          if (!wanted.containsKey(id)) {
            registry.remove(gauge);
            gone.add(id);
          }
        });
    gone.forEach(group.gauges::remove);
    group.gauges.putAll(wanted);
  }

  private void series(
      final String name,
      final Map<String, Function<GroupStatus, ResourceList>> fields,
      final GroupStatus status,
      final Tags tags,
      final Gauged group,
      final Map<String, Gauge> wanted) {
    fields.forEach(
        (field, values) -> {
          for (final String resource : values.apply(status).names()) {
            final String id = name + "/" + field + "/" + resource;
            final Gauge existing = group.gauges.get(id);
            wanted.put(
                id,
                existing != null
                    ? existing
                    : Gauge.builder(name, group, g -> g.value(values, resource))
                        .description(
                            name.equals(STATUS)
                                ? "A quota group's computed runtime, request and used"
                                : "A quota group's min and max")
                        .tags(tags.and("field", field, "resource", resource))
                        .strongReference(true)
                        .register(registry));
          }
        });
  }

  private void unregister(final Gauged group) {
    group.gauges.values().forEach(registry::remove);
    group.gauges.clear();
  }

  private static boolean sameLabels(final GroupStatus before, final GroupStatus after) {
    return before.parent().equals(after.parent()) && before.parentGroup() == after.parentGroup();
  }
}

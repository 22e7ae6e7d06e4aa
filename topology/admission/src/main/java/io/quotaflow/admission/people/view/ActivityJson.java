package io.quotaflow.admission.people.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The JSON of a cluster's recent evictions and denials, newest first. */
public final class ActivityJson {

  private ActivityJson() {}

  /** {@code {"cluster", "evictions": [...], "denials": [...]}}. */
  public static ObjectNode of(String cluster, RecentActivity activity) {
    return of(cluster, activity, group -> true);
  }

  /** As {@link #of(String, RecentActivity)}, of the groups {@code shown} accepts only. */
  public static ObjectNode of(
      String cluster, RecentActivity activity, java.util.function.Predicate<String> shown) {
    final ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("cluster", cluster);
    final ArrayNode evictions = node.putArray("evictions");
    for (final RecentActivity.Eviction eviction : activity.evictions(cluster)) {
      if (!shown.test(eviction.group())) {
        continue;
      }
      final ObjectNode e = evictions.addObject();
      e.put("commandId", eviction.commandId());
      e.put("namespace", eviction.pod().namespace());
      e.put("name", eviction.pod().name());
      e.put("group", eviction.group());
      e.put("reason", eviction.reason());
      e.put("code", eviction.code());
      e.put("attempt", eviction.attempt());
      e.put("issuedAt", eviction.issuedAt().toEpochMilli());
      eviction.outcome().ifPresentOrElse(o -> e.put("outcome", o), () -> e.putNull("outcome"));
      e.put("message", eviction.message());
      eviction
          .completedAt()
          .ifPresentOrElse(
              at -> e.put("completedAt", at.toEpochMilli()), () -> e.putNull("completedAt"));
    }
    final ArrayNode denials = node.putArray("denials");
    for (final RecentActivity.Denial denial : activity.denials(cluster)) {
      if (!shown.test(denial.group())) {
        continue;
      }
      final ObjectNode d = denials.addObject();
      d.put("namespace", denial.pod().namespace());
      d.put("name", denial.pod().name());
      d.put("group", denial.group());
      d.put("code", denial.code());
      d.put("reason", denial.reason());
      d.put("source", denial.source());
      d.put("warnedOnly", denial.warnedOnly());
      d.put("last", denial.last().toEpochMilli());
      d.put("count", denial.count());
    }
    return node;
  }
}

package io.quotaflow.admission.people.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.people.history.HistoryQuery;
import io.quotaflow.admission.state.GroupHistories;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.ResourceHours;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A report's body (docs/admission.md "Reports"), whoever reads the history: the query API from the
 * engine's stores, {@code quotaflow report --bootstrap-servers} from their changelog, so both print
 * the same figures for the same period.
 */
public final class Reports {

  private Reports() {}

  /** The period asked, widened to whole kept steps. */
  public record Period(Instant start, Instant end) {}

  /**
   * The period {@code from}-{@code to} (ISO-8601 instants, {@code now}, or durations back from now
   * such as {@code -1d}) widened to whole steps of {@code step}.
   *
   * @throws IllegalArgumentException naming what does not read as a time, or a period that does not
   *     end after it starts
   */
  public static Period period(String from, String to, Duration step, Instant now) {
    final Instant start = HistoryQuery.floor(time("from", from, now), step);
    return period(from, to, start, step, now);
  }

  /**
   * The period {@code from}-{@code to} widened to whole steps of the tier of {@code histories} that
   * answers it (the coarse one when it starts past the fine tier's retention, section 23).
   *
   * @throws IllegalArgumentException as {@link #period(String, String, Duration, Instant)}
   */
  public static Period period(String from, String to, GroupHistories histories, Instant now) {
    final Instant start = histories.floor(time("from", from, now), now);
    return period(from, to, start, histories.step(start, now), now);
  }

  private static Period period(String from, String to, Instant start, Duration step, Instant now) {
    final Instant end = HistoryQuery.ceil(time("to", to, now), step);
    if (!end.isAfter(start)) {
      throw new IllegalArgumentException("to must be after from (got " + from + " to " + to + ")");
    }
    return new Period(start, end);
  }

  private static Instant time(String name, String text, Instant now) {
    try {
      HistoryQuery.instant(name, text, now);
    } catch (BadRequestException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return HistoryQuery.parse(text, now);
  }

  /**
   * The report of {@code cluster} over {@code period}: a row per group of {@code groups} and per
   * other group with history in the period, but the root, and only those {@code listed} lets
   * through.
   *
   * @param exists whether a group exists now (a deleted one is reported for the time it existed)
   */
  public static ObjectNode body(
      String cluster,
      Period period,
      Instant now,
      GroupHistories histories,
      Collection<String> groups,
      Predicate<String> listed,
      Predicate<String> exists) {
    final List<String> named =
        groups.stream().filter(group -> !SpecialGroups.ROOT.equals(group)).toList();
    final Map<String, HistoryStep> totals =
        histories.totals(named, period.start(), period.end(), now);
    final ObjectNode body = Json.object();
    body.put("cluster", cluster);
    body.put("from", period.start().toString());
    body.put("to", period.end().isAfter(now) ? now.toString() : period.end().toString());
    final ArrayNode rows = body.putArray("groups");
    totals.forEach(
        (group, total) -> {
          // The root is the cluster: it has no guarantee to borrow beyond or lend.
          if (listed.test(group) && !SpecialGroups.ROOT.equals(group)) {
            rows.add(row(group, total, exists.test(group)));
          }
        });
    return body;
  }

  private static ObjectNode row(String group, HistoryStep total, boolean exists) {
    final ObjectNode row = Json.object();
    row.put("group", group);
    row.put("exists", exists);
    final ObjectNode resources = row.putObject("resources");
    for (final String resource : total.integrals().resources()) {
      final ObjectNode figures = resources.putObject(resource);
      figures.put("unit", ResourceHours.unit(resource));
      figures.put("guaranteed", hours(total, resource, HistoryMetric.MIN));
      figures.put("used", hours(total, resource, HistoryMetric.USED));
      figures.put("borrowed", hours(total, resource, HistoryMetric.BORROWED));
      figures.put("lent", hours(total, resource, HistoryMetric.LENT));
      figures.put("requested", hours(total, resource, HistoryMetric.REQUEST));
      final BigDecimal share = ResourceHours.guaranteeUsedPercent(total.integrals(), resource);
      if (share == null) {
        figures.putNull("guaranteeUsedPercent");
      } else {
        figures.put("guaranteeUsedPercent", share.toPlainString());
      }
      final ObjectNode integrals = figures.putObject("integrals");
      for (final HistoryMetric metric : HistoryMetric.values()) {
        integrals.put(metric.jsonName(), total.integrals().get(resource, metric).toString());
      }
    }
    final ObjectNode evictions = row.putObject("evictions");
    total.evictions().forEach(evictions::put);
    final ObjectNode denials = row.putObject("denials");
    total.denials().forEach(denials::put);
    return row;
  }

  private static String hours(HistoryStep total, String resource, HistoryMetric metric) {
    return ResourceHours.of(resource, total.integrals().get(resource, metric)).toPlainString();
  }
}

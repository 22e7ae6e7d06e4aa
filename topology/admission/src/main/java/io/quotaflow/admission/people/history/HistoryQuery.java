package io.quotaflow.admission.people.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.people.QueryParams;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.GroupHistories;
import io.quotaflow.admission.state.HistoryAccess;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.config.Parsers;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryStep;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/clusters/{cluster}/quotas/{group}/history?from=&to=&step=}: the group's
 * request, used, runtime, min, borrowed and lent per resource over a period, one value per step
 * (issue 30; docs/semantics.md section 23, docs/admission.md "History"). {@code from} and {@code
 * to} are ISO-8601 instants, {@code now}, or a duration back from now ({@code -1h}, {@code -14d});
 * by default the last hour. {@code step} is a multiple of the kept step, by default the kept step
 * (the step of the tier that answers the period's start: the coarse one for a start past the fine
 * tier's retention). The period is widened to whole steps. Each step gives the exact integral
 * (unit-milliseconds, a decimal string: it may exceed what a JSON number holds exactly) and the
 * average, rounded down.
 */
public final class HistoryQuery extends QueryApi.Query {

  /** The most steps one answer holds: 14 days of 2-minute steps fit; a year of minutes does not. */
  static final int MAX_STEPS = 10_080;

  private final String group;
  private final String from;
  private final String to;
  private final Optional<Duration> step;
  private final Clock clock;

  private HistoryQuery(String group, String from, String to, Optional<Duration> step, Clock clock) {
    super("query-history");
    this.group = group;
    this.from = from;
    this.to = to;
    this.step = step;
    this.clock = clock;
  }

  /** The query for {@code group} with the parameters of {@code query}; a 400 when they are bad. */
  public static HistoryQuery of(String group, String query, Clock clock)
      throws BadRequestException {
    final Map<String, String> params = QueryParams.of(query);
    final String from = params.getOrDefault("from", "-1h");
    final String to = params.getOrDefault("to", "now");
    final Instant now = clock.instant();
    instant("from", from, now);
    instant("to", to, now);
    Optional<Duration> step = Optional.empty();
    final String text = params.get("step");
    if (text != null) {
      try {
        step = Optional.of(Parsers.duration(text));
      } catch (RuntimeException e) {
        throw new BadRequestException(
            "step \"" + text + "\" is not a duration such as 1m, 5m, 1h or 1d");
      }
      // A step of nothing would divide the period by zero.
      if (step.get().toMillis() <= 0) {
        throw new BadRequestException(
            "step \"" + text + "\" must be at least a millisecond, such as 1m, 5m, 1h or 1d");
      }
    }
    return new HistoryQuery(group, from, to, step, clock);
  }

  @Override
  public Answer decide(String cluster, Void request, ClusterView view) {
    // Before any lookup: a group the viewer may not list now (another's, or a deleted one, whose
    // namespaces are no longer known) answers as one that never existed.
    if (view instanceof VisibleClusterView visible && !visible.lists(group)) {
      return noHistory(cluster, group);
    }
    final HistoryAccess access = view.history();
    if (!(access instanceof HistoryAccess.Kept kept)) {
      return HistoryQuery.refusal(cluster, access);
    }
    final GroupHistories histories = kept.histories();
    final Instant now = HistoryQuery.now(clock);
    if (view.group(group).isEmpty() && !histories.keepsAny(group, now)) {
      return noHistory(cluster, group);
    }
    // With two tiers (section 23) the kept step depends on where the period starts: the default
    // step is that of the tier that answers, and an older start needs a coarser step.
    final Instant asked = parse(from, now);
    final Duration each = step.orElseGet(() -> histories.step(histories.floor(asked, now), now));
    final Instant start = floor(asked, each);
    final Duration keptStep = histories.step(start, now);
    if (each.toMillis() % keptStep.toMillis() != 0) {
      return Answer.error(
          400,
          "step "
              + each
              + " is not a multiple of the step the history is kept at ("
              + keptStep
              + ") for a period from "
              + start
              + (keptStep.equals(histories.step(now, now))
                  ? ""
                  : ": older periods are kept at a coarser step"),
          "bad-request");
    }
    final Instant end = ceil(parse(to, now), each);
    if (!end.isAfter(start)) {
      return Answer.error(
          400, "to must be after from (got " + from + " to " + to + ")", "bad-request");
    }
    final long steps = (end.toEpochMilli() - start.toEpochMilli()) / each.toMillis();
    if (steps > MAX_STEPS) {
      return Answer.error(
          400,
          "the period holds "
              + steps
              + " steps of "
              + each
              + ", more than "
              + MAX_STEPS
              + ": ask for a larger step or a shorter period",
          "bad-request");
    }
    final List<HistoryStep> series;
    try {
      series = histories.steps(group, start, end, each, now);
    } catch (IllegalArgumentException e) {
      return Answer.error(400, e.getMessage(), "bad-request");
    }
    // The group's resources are listed even where the period holds only zeros (a chart's axis).
    final Set<String> resources = new TreeSet<>();
    view.group(group)
        .ifPresent(
            status -> {
              resources.addAll(status.min().names());
              resources.addAll(status.max().names());
              resources.addAll(status.request().names());
            });
    series.forEach(one -> resources.addAll(one.integrals().resources()));
    return Answer.json(
        200, body(cluster, histories, start, end, each, now, series, resources), "ok");
  }

  private ObjectNode body(
      String cluster,
      GroupHistories histories,
      Instant start,
      Instant end,
      Duration each,
      Instant now,
      List<HistoryStep> series,
      Set<String> resources) {
    final ObjectNode body = Json.object();
    body.put("cluster", cluster);
    body.put("group", group);
    body.put("from", start.toString());
    body.put("to", end.toString());
    body.put("step", each.toString());
    body.put("keptStep", histories.step(start, now).toString());
    body.put("keptSince", now.minus(histories.retention()).toString());
    final ArrayNode times = body.putArray("steps");
    for (final HistoryStep one : series) {
      final ObjectNode time =
          times.addObject().put("start", one.start().toString()).put("end", one.end().toString());
      final ObjectNode evictions = time.putObject("evictions");
      one.evictions().forEach(evictions::put);
      final ObjectNode denials = time.putObject("denials");
      one.denials().forEach(denials::put);
    }
    final ObjectNode byResource = body.putObject("resources");
    for (final String resource : resources) {
      final ObjectNode metrics = byResource.putObject(resource);
      for (final HistoryMetric metric : HistoryMetric.values()) {
        final ObjectNode values = metrics.putObject(metric.jsonName());
        final ArrayNode averages = values.putArray("average");
        final ArrayNode integrals = values.putArray("integral");
        for (final HistoryStep one : series) {
          averages.add(one.average(resource, metric));
          integrals.add(one.integrals().get(resource, metric).toString());
        }
      }
    }
    return body;
  }

  private static Answer noHistory(String cluster, String group) {
    return Answer.error(
        404,
        "cluster " + cluster + " has no quota group " + group + ", and no history of one",
        "not-found");
  }

  /** Checks {@code text} reads as a time (or fails with a 400 naming {@code name}). */
  public static void instant(String name, String text, Instant now) throws BadRequestException {
    try {
      parse(text, now);
    } catch (RuntimeException e) {
      throw new BadRequestException(
          name
              + " \""
              + text
              + "\" is not a time: use an ISO-8601 instant (2026-11-27T10:00:00Z), now, or a"
              + " duration back from now (-1h, -14d)");
    }
  }

  /** Why {@code access} gives no history: 404 when none is kept, 503 while it cannot be read. */
  public static Answer refusal(String cluster, HistoryAccess access) {
    if (access instanceof HistoryAccess.NotKept notKept) {
      return Answer.error(404, notKept.why(), "not-found");
    }
    if (access instanceof HistoryAccess.Unreadable unreadable) {
      return QueryApi.unavailable(cluster, unreadable.why());
    }
    throw new IllegalArgumentException("the history is kept: nothing to refuse");
  }

  /** Now, to the millisecond, as the history keeps time. */
  public static Instant now(Clock clock) {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  public static Instant parse(String text, Instant now) {
    if (text.equals("now")) {
      return now;
    }
    if (text.startsWith("-")) {
      return now.minus(Parsers.duration(text.substring(1)));
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  public static Instant floor(Instant at, Duration step) {
    final long millis = step.toMillis();
    return Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), millis) * millis);
  }

  public static Instant ceil(Instant at, Duration step) {
    final long millis = step.toMillis();
    return Instant.ofEpochMilli(-Math.floorDiv(-at.toEpochMilli(), millis) * millis);
  }
}

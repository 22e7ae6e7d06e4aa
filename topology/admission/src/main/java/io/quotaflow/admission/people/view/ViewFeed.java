package io.quotaflow.admission.people.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.state.ClusterSnapshot;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Readiness;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.tree.GroupStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the web view's streams are sent. After each copy of the clusters' last state ({@code
 * admission.state.refresh.interval}), the copy is compared with the one before, group by group, and
 * only the rows that changed go out ({@code groups}); more than {@value #MAX_ROWS} at once go out
 * as {@code reset} (re-read what you show). Each copy also sends {@code status}: readiness and how
 * old the state is. Activity (evictions, denials) goes out as it happens.
 */
public final class ViewFeed {

  /** More changed rows than this are sent as a reset. */
  static final int MAX_ROWS = 2000;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ClusterStateReader reader;
  private final LastKnownState lastKnown;
  private final ViewStreams streams;
  private final RecentActivity activity;
  private final Clock clock;
  private final Optional<Duration> revokeDelay;
  private final Duration staleAfter;
  private final Map<String, ClusterSnapshot> sent = new ConcurrentHashMap<>();

  /**
   * @param revokeDelay the engine's revoke delay; empty when it does not reclaim
   * @param staleAfter a state older than this is marked stale in the page
   */
  public ViewFeed(
      ClusterStateReader reader,
      LastKnownState lastKnown,
      ViewStreams streams,
      RecentActivity activity,
      Clock clock,
      Optional<Duration> revokeDelay,
      Duration staleAfter) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.lastKnown = Objects.requireNonNull(lastKnown, "lastKnown");
    this.streams = Objects.requireNonNull(streams, "streams");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.revokeDelay = Objects.requireNonNull(revokeDelay, "revokeDelay");
    this.staleAfter = Objects.requireNonNull(staleAfter, "staleAfter");
    activity.onChange(
        cluster ->
            streams.send(cluster, "activity", ActivityJson.of(cluster, activity).toString()));
  }

  /** The cluster's last state, whatever its age; empty when none was read here. */
  public Optional<ClusterSnapshot> snapshot(String cluster) {
    return lastKnown.snapshot(cluster);
  }

  /**
   * Sends what changed since the last call to every stream, and each followed cluster's status.
   * Called after each refresh of the last state; never throws.
   */
  public void publish() {
    for (final String cluster : streams.followed()) {
      final Optional<ClusterSnapshot> now = lastKnown.snapshot(cluster);
      final ClusterSnapshot before = sent.get(cluster);
      if (now.isPresent() && now.get() != before) {
        if (before != null) {
          changes(cluster, before, now.get());
        }
        sent.put(cluster, now.get());
      }
      streams.send(cluster, "status", status(cluster).toString());
    }
    sent.keySet().retainAll(streams.followed());
  }

  /** The status event of {@code cluster}: readiness, the state's age, the clocks the page needs. */
  public ObjectNode status(String cluster) {
    final ObjectNode status = NODES.objectNode();
    final Instant now = clock.instant();
    status.put("cluster", cluster);
    status.put("now", now.toEpochMilli());
    Readiness readiness;
    try {
      readiness = reader.readiness();
    } catch (RuntimeException e) {
      readiness = Readiness.notReady("the engine's readiness cannot be read: " + e.getMessage());
    }
    status.put("ready", readiness.ready());
    status.put("detail", readiness.detail());
    final Optional<Staleness> staleness = lastKnown.staleness(cluster);
    status.put("held", staleness.isPresent());
    if (staleness.isPresent()) {
      status.put("asOf", staleness.get().asOf().toEpochMilli());
      status.put("ageMillis", staleness.get().age().toMillis());
      status.put("stale", staleness.get().age().compareTo(staleAfter) > 0);
    } else {
      status.putNull("asOf");
      status.putNull("ageMillis");
      status.put("stale", true);
    }
    status.put("staleAfterMillis", staleAfter.toMillis());
    revokeDelay.ifPresentOrElse(
        delay -> status.put("revokeDelayMillis", delay.toMillis()),
        () -> status.putNull("revokeDelayMillis"));
    return status;
  }

  /** The first events of a new stream: its status and the recent activity. */
  public List<String> first(String cluster) {
    final Optional<ClusterSnapshot> now = lastKnown.snapshot(cluster);
    now.ifPresent(snapshot -> sent.putIfAbsent(cluster, snapshot));
    return List.of(
        ViewStreams.event("status", status(cluster).toString()),
        ViewStreams.event("activity", ActivityJson.of(cluster, activity).toString()));
  }

  private void changes(String cluster, ClusterSnapshot before, ClusterSnapshot now) {
    final ObjectNode event = NODES.objectNode();
    final ArrayNode rows = event.putArray("rows");
    final ArrayNode removed = event.putArray("removed");
    final Map<String, Instant> sinceBefore = before.overUsedSince();
    final Map<String, Instant> sinceNow = now.overUsedSince();
    int count = 0;
    for (final GroupStatus status : now.groups()) {
      final String name = status.name();
      final Optional<GroupStatus> old = before.group(name);
      if (old.isPresent()
          && old.get().equals(status)
          && before.childNames(name).size() == now.childNames(name).size()
          && Objects.equals(sinceBefore.get(name), sinceNow.get(name))
          && Objects.equals(before.reservations().get(name), now.reservations().get(name))) {
        continue;
      }
      if (++count > MAX_ROWS) {
        streams.send(cluster, "reset", "{}");
        return;
      }
      rows.add(ViewJson.row(status, now));
    }
    for (final GroupStatus status : before.groups()) {
      if (now.group(status.name()).isEmpty()) {
        removed.add(status.name());
      }
    }
    if (!rows.isEmpty() || !removed.isEmpty()) {
      streams.send(cluster, "groups", event.toString());
    }
  }
}

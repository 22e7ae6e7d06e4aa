package io.quotaflow.cli.report;

import io.quotaflow.admission.http.state.KeptWindows;
import io.quotaflow.engine.history.HistoryChangelog;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The engine's history read from Kafka, without the engine: the group-history store's changelog
 * (which holds what the store holds) and {@code runtime.v1} for the groups that exist now. For
 * {@code quotaflow report --bootstrap-servers}.
 */
final class OfflineHistory {

  /** What the topics hold of one cluster. */
  record Cluster(KeptWindows windows, Set<String> groups) {}

  private final Consumer<byte[], byte[]> consumer;
  private final Duration timeout;

  /**
   * @param consumer a consumer in no group, reading committed records only
   * @param timeout how long a read may take in all
   */
  OfflineHistory(Consumer<byte[], byte[]> consumer, Duration timeout) {
    this.consumer = consumer;
    this.timeout = timeout;
  }

  /**
   * The changelog of {@code applicationId}'s history: the one kept at {@code step} when given, else
   * the only one there is.
   *
   * @throws IllegalStateException naming what was found when it is not exactly one
   */
  String changelog(String applicationId, Optional<Duration> step) {
    final Map<Duration, String> found = new TreeMap<>();
    final Set<String> others = new TreeSet<>();
    for (final String topic : consumer.listTopics(timeout).keySet()) {
      HistoryChangelog.stepOf(applicationId, topic).ifPresent(each -> found.put(each, topic));
      if (topic.contains("-group-history-") && topic.endsWith("s-changelog")) {
        others.add(topic.substring(0, topic.indexOf("-group-history-")));
      }
    }
    others.remove(applicationId);
    if (step.isPresent()) {
      final String topic = HistoryChangelog.topic(applicationId, step.get());
      if (!found.containsValue(topic)) {
        throw new IllegalStateException(
            "no history kept at a step of "
                + step.get()
                + ": topic "
                + topic
                + " is missing"
                + (found.isEmpty() ? "" : " (kept steps: " + found.keySet() + ")"));
      }
      return topic;
    }
    if (found.size() == 1) {
      return found.values().iterator().next();
    }
    if (found.isEmpty()) {
      throw new IllegalStateException(
          "no history of the engine "
              + applicationId
              + " in this Kafka (no topic "
              + applicationId
              + "-group-history-<step>s-changelog): check --application-id and that the engine"
              + " keeps its history (history.enabled)"
              + (others.isEmpty() ? "" : "; engines with a history here: " + others));
    }
    throw new IllegalStateException(
        "the engine "
            + applicationId
            + " kept its history at several steps "
            + found.keySet()
            + ": choose one with --history-step");
  }

  /**
   * Each cluster's kept windows from {@code changelog} (of {@code step}), those that start at
   * {@code oldest} or later, and its groups from the runtime topic.
   */
  Map<String, Cluster> read(
      String changelog, Duration step, Instant oldest, TopicCatalogue topics) {
    final Map<GroupId, TreeMap<Instant, GroupHistoryWindow>> windows = new HashMap<>();
    readAll(
        changelog,
        record -> {
          final HistoryChangelog.Entry entry =
              HistoryChangelog.read(changelog, step, record.key(), record.value());
          final TreeMap<Instant, GroupHistoryWindow> group =
              windows.computeIfAbsent(entry.group(), g -> new TreeMap<>());
          if (entry.window() == null) {
            group.remove(entry.start());
          } else {
            group.put(entry.start(), entry.window());
          }
        });
    final Map<String, Set<String>> groups = new TreeMap<>();
    final String runtime = topics.runtime().name();
    readAll(
        runtime,
        record -> {
          final QuotaKey key =
              topics.runtime().keySerde().deserializer().deserialize(runtime, record.key());
          final Set<String> names = groups.computeIfAbsent(key.getCluster(), c -> new TreeSet<>());
          if (record.value() == null) {
            names.remove(key.getName());
          } else {
            names.add(key.getName());
          }
        });
    final Map<String, KeptWindows> kept = new TreeMap<>();
    windows.forEach(
        (group, byStart) ->
            byStart
                .tailMap(oldest, true)
                .forEach(
                    (start, window) ->
                        kept.computeIfAbsent(group.cluster(), c -> new KeptWindows(step))
                            .keep(group.name(), HistoryRecords.window(start, window))));
    final Map<String, Cluster> clusters = new TreeMap<>();
    for (final String cluster : union(kept.keySet(), groups.keySet())) {
      clusters.put(
          cluster,
          new Cluster(
              kept.getOrDefault(cluster, new KeptWindows(step)),
              groups.getOrDefault(cluster, Set.of())));
    }
    return clusters;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    final Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }

  /** Reads every record of {@code topic} from its start to its end as of now. */
  private void readAll(
      String topic, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
    final List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      return;
    }
    final List<TopicPartition> partitions =
        infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    final Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, timeout));
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (!reached(end)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "reading "
                + topic
                + " took longer than "
                + timeout
                + "; still to read: "
                + end.keySet().stream()
                    .map(TopicPartition::toString)
                    .collect(Collectors.joining(", ")));
      }
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
        each.accept(record);
      }
    }
    consumer.unsubscribe();
  }

  /** Whether every partition's position is at its end (those reached are forgotten). */
  private boolean reached(Map<TopicPartition, Long> end) {
    end.entrySet()
        .removeIf(entry -> consumer.position(entry.getKey(), timeout) >= entry.getValue());
    return end.isEmpty();
  }
}

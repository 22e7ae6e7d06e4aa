package io.quotaflow.cli.report;

import io.quotaflow.admission.state.GroupHistories;
import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.TieredWindows;
import io.quotaflow.engine.history.HistoryChangelog;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.HistoryTiers;
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
 * The engine's history read from Kafka, without the engine: the group-history stores' changelogs
 * (which hold what the stores hold) and {@code runtime.v1} for the groups that exist now. For
 * {@code quotaflow report --bootstrap-servers}. An engine keeps its history in two tiers
 * (docs/semantics.md section 23), so two changelogs; one kept before the tiers has one.
 */
final class OfflineHistory {

  /** What the topics hold of one cluster. */
  record Cluster(GroupHistories windows, Set<String> groups) {}

  /**
   * Where the history is: the changelog of the fine tier and of the coarse one with their tiers,
   * or, for a history kept before the tiers, one changelog ({@code coarse} and {@code tiers}
   * empty).
   */
  record Changelogs(
      String fine, Duration fineStep, Optional<String> coarse, Optional<HistoryTiers> tiers) {}

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
   * The changelogs of {@code applicationId}'s history: the coarse tier's at {@code coarseStep}, and
   * the fine tier's at {@code step} when given, else at the only other step there is that divides
   * {@code coarseStep}. Without a coarse tier's changelog, the one of {@link #changelog}.
   *
   * @throws IllegalStateException naming what was found when the fine tier is not found, or is
   *     ambiguous
   * @throws IllegalArgumentException when the steps and retentions break a rule of the tiers
   */
  Changelogs changelogs(
      String applicationId,
      Optional<Duration> step,
      Duration coarseStep,
      Duration fineRetention,
      Duration retention) {
    final Set<Duration> kept = new TreeSet<>();
    for (final String topic : consumer.listTopics(timeout).keySet()) {
      HistoryChangelog.stepOf(applicationId, topic).ifPresent(kept::add);
    }
    final Set<Duration> finer = new TreeSet<>();
    for (final Duration each : kept) {
      if (each.compareTo(coarseStep) < 0 && coarseStep.toMillis() % each.toMillis() == 0) {
        finer.add(each);
      }
    }
    if (!kept.contains(coarseStep) || (step.isEmpty() && finer.isEmpty())) {
      final String topic = changelog(applicationId, step);
      return new Changelogs(
          topic,
          HistoryChangelog.stepOf(applicationId, topic).orElseThrow(),
          Optional.empty(),
          Optional.empty());
    }
    if (step.isEmpty() && finer.size() > 1) {
      throw new IllegalStateException(
          "the engine "
              + applicationId
              + " kept its fine history at several steps "
              + finer
              + ": choose one with --history-step");
    }
    final Duration fine = step.orElseGet(() -> finer.iterator().next());
    final String topic = HistoryChangelog.topic(applicationId, fine);
    if (!kept.contains(fine)) {
      throw new IllegalStateException(
          "no history kept at a step of " + fine + ": topic " + topic + " is missing");
    }
    return new Changelogs(
        topic,
        fine,
        Optional.of(HistoryChangelog.topic(applicationId, coarseStep)),
        Optional.of(HistoryConfig.tiers(fine, coarseStep, fineRetention, retention)));
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
   * Each cluster's kept windows from {@code changelogs}, those a store would still answer at {@code
   * now} ({@code retention} for a history kept in one changelog), and its groups from the runtime
   * topic.
   */
  Map<String, Cluster> read(
      Changelogs changelogs, Instant now, Duration retention, TopicCatalogue topics) {
    final Map<String, GroupHistories> histories = new TreeMap<>();
    if (changelogs.tiers().isPresent()) {
      final HistoryTiers tiers = changelogs.tiers().get();
      final Map<String, KeptWindows> coarse =
          windows(
              changelogs.coarse().orElseThrow(),
              tiers.coarseStep(),
              now.minus(tiers.retention()),
              cluster -> null);
      final Map<String, KeptWindows> fine =
          windows(
              changelogs.fine(),
              tiers.fineStep(),
              now.minus(tiers.fineKept()),
              cluster -> coarse.computeIfAbsent(cluster, c -> new KeptWindows(tiers.coarseStep())));
      for (final String cluster : union(coarse.keySet(), fine.keySet())) {
        final KeptWindows coarseOne =
            coarse.computeIfAbsent(cluster, c -> new KeptWindows(tiers.coarseStep()));
        histories.put(
            cluster,
            new TieredWindows(
                tiers,
                fine.getOrDefault(cluster, new KeptWindows(tiers.fineStep(), coarseOne)),
                coarseOne));
      }
    } else {
      histories.putAll(
          windows(changelogs.fine(), changelogs.fineStep(), now.minus(retention), c -> null));
    }
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
    final Map<String, Cluster> clusters = new TreeMap<>();
    for (final String cluster : union(histories.keySet(), groups.keySet())) {
      clusters.put(
          cluster,
          new Cluster(
              histories.getOrDefault(
                  cluster,
                  changelogs.tiers().isPresent()
                      ? new TieredWindows(
                          changelogs.tiers().get(),
                          new KeptWindows(changelogs.fineStep()),
                          new KeptWindows(changelogs.tiers().get().coarseStep()))
                      : new KeptWindows(changelogs.fineStep())),
              groups.getOrDefault(cluster, Set.of())));
    }
    return clusters;
  }

  /**
   * Each cluster's windows of {@code changelog} (of {@code step}) that start at {@code oldest} or
   * later, reading the levels in force before them in {@code earlier}'s (null for none).
   */
  private Map<String, KeptWindows> windows(
      String changelog,
      Duration step,
      Instant oldest,
      java.util.function.Function<String, KeptWindows> earlier) {
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
    final Map<String, KeptWindows> kept = new TreeMap<>();
    windows.forEach(
        (group, byStart) ->
            byStart
                .tailMap(oldest, true)
                .forEach(
                    (start, window) ->
                        kept.computeIfAbsent(
                                group.cluster(), c -> new KeptWindows(step, earlier.apply(c)))
                            .keep(group.name(), HistoryRecords.window(start, window))));
    return kept;
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

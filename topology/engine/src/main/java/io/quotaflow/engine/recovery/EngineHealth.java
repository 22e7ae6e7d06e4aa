package io.quotaflow.engine.recovery;

import io.micrometer.core.instrument.Gauge;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this engine instance can do its work, checked every {@code interval} on a thread of its
 * own: it reaches Kafka (without Kafka it cannot commit, so what it computes is neither kept nor
 * published), and none of its active tasks holds no cluster while its input partitions hold records
 * (a sign of state lost in a restore). The first is a reason not to be ready; the second is a gauge
 * to alert on ({@link EngineMetrics#TASKS_EMPTY_WITH_INPUTS}), not a readiness reason, since a
 * partition whose clusters were all deleted legitimately looks the same.
 */
public final class EngineHealth implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngineHealth.class);

  private final Supplier<Admin> admin;
  private final List<String> inputTopics;
  private final EngineMetrics metrics;
  private final Duration interval;
  private final Clock clock;
  private final ScheduledExecutorService probe;

  private volatile Instant unreachableSince;
  private volatile String unreachableBecause = "";
  private volatile int emptyTasks;

  /**
   * @param admin the admin client the checks use (created on first use)
   * @param inputTopics the topics the cluster-quota tasks read, by partition
   * @param metrics where the gauges go and the active tasks' cluster counts come from
   * @param interval how often to check
   */
  public EngineHealth(
      final Supplier<Admin> admin,
      final List<String> inputTopics,
      final EngineMetrics metrics,
      final Duration interval,
      final Clock clock) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.inputTopics = List.copyOf(inputTopics);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.probe =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-engine-health");
              thread.setDaemon(true);
              return thread;
            });
    Gauge.builder(EngineMetrics.KAFKA_UNREACHABLE, () -> unreachableSince == null ? 0 : 1)
        .description("1 while this engine instance cannot reach Kafka, so cannot commit")
        .register(metrics.registry());
    Gauge.builder(EngineMetrics.TASKS_EMPTY_WITH_INPUTS, () -> emptyTasks)
        .description(
            "Active tasks of this instance holding no cluster while their input partitions hold"
                + " records")
        .register(metrics.registry());
  }

  /** Starts checking; the first check runs at once. */
  public EngineHealth start() {
    probe.scheduleWithFixedDelay(this::check, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** Why this instance should not receive traffic now; empty when nothing is known to be wrong. */
  public Optional<String> problem() {
    final Instant since = unreachableSince;
    return since == null
        ? Optional.empty()
        : Optional.of(
            "Kafka has been unreachable since "
                + since
                + " ("
                + unreachableBecause
                + "): the engine cannot commit, its answers would come from a state it cannot"
                + " update");
  }

  /** How many active tasks hold no cluster while their input partitions hold records. */
  public int emptyTasksWithInputs() {
    return emptyTasks;
  }

  /** One check: Kafka reachable, then the tasks' cluster counts against their inputs. */
  void check() {
    try {
      admin
          .get()
          .describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs()))
          .clusterId()
          .get(timeoutMs(), TimeUnit.MILLISECONDS);
      if (unreachableSince != null) {
        LOG.info("Kafka is reachable again (unreachable since {})", unreachableSince);
      }
      unreachableSince = null;
    } catch (final Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        return;
      }
      if (unreachableSince == null) {
        unreachableSince = clock.instant();
        unreachableBecause = describe(rootCause(e));
        LOG.warn("Kafka is unreachable: {}", unreachableBecause);
      }
      // The stream threads block on Kafka meanwhile: waiting, not wedged (issue 40.11).
      metrics.heartbeats().excuseAll();
      return;
    }
    try {
      emptyTasks = countEmptyTasksWithInputs();
    } catch (final Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.debug("Could not compare the tasks' clusters with their inputs", e);
    }
  }

  /** A failure in words: its message, or what it was when it has none (a timed-out wait). */
  private String describe(final Throwable failure) {
    if (failure instanceof java.util.concurrent.TimeoutException) {
      return "no answer within " + timeoutMs() + " ms";
    }
    final String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }

  private int countEmptyTasksWithInputs() throws Exception {
    final Map<Integer, Integer> held = metrics.clustersByTask();
    final Set<Integer> empty = new TreeSet<>();
    held.forEach(
        (partition, clusters) -> {
          if (clusters == 0) {
            empty.add(partition);
          }
        });
    if (empty.isEmpty()) {
      return 0;
    }
    final List<TopicPartition> partitions = new ArrayList<>();
    for (final int partition : empty) {
      inputTopics.forEach(topic -> partitions.add(new TopicPartition(topic, partition)));
    }
    final Map<TopicPartition, Long> first = offsets(partitions, OffsetSpec.earliest());
    final Map<TopicPartition, Long> last = offsets(partitions, OffsetSpec.latest());
    final Set<Integer> withInputs = new TreeSet<>();
    for (final TopicPartition partition : partitions) {
      if (last.getOrDefault(partition, 0L) > first.getOrDefault(partition, 0L)) {
        withInputs.add(partition.partition());
      }
    }
    if (!withInputs.isEmpty()) {
      LOG.warn(
          "Active tasks of input partitions {} hold no cluster while their inputs hold records",
          withInputs);
    }
    return withInputs.size();
  }

  private Map<TopicPartition, Long> offsets(
      final List<TopicPartition> partitions, final OffsetSpec spec) throws Exception {
    final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(partition -> request.put(partition, spec));
    final Map<TopicPartition, ListOffsetsResultInfo> answer =
        admin
            .get()
            .listOffsets(
                request,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs(timeoutMs()))
            .all()
            .get(timeoutMs(), TimeUnit.MILLISECONDS);
    final Map<TopicPartition, Long> offsets = new HashMap<>();
    answer.forEach((partition, info) -> offsets.put(partition, info.offset()));
    return offsets;
  }

  private int timeoutMs() {
    return (int) Math.max(1_000, interval.toMillis());
  }

  private static Throwable rootCause(final Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  @Override
  public void close() {
    probe.shutdownNow();
  }
}

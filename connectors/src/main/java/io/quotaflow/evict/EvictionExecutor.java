package io.quotaflow.evict;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.ClientLoop;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.InputGaps;
import io.quotaflow.cluster.KafkaClientMeters;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.events.EventSettings;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.record.TimestampType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the eviction commands of {@code evictions.v1} for its clusters and writes exactly one
 * result per command to {@code eviction-results.v1}.
 *
 * <p>Each result is written in a Kafka transaction together with the consumer offset past its
 * command ({@code sendOffsetsToTransaction}; past every command before it too), so a command's
 * result and "this command is done" become visible together or not at all. A command whose id
 * already has a result (read from the results topic, committed records only) is skipped, so a
 * command that appears twice is carried out once. After a crash between evicting and committing,
 * the command is carried out again: the pod is then gone (result {@code GONE}) or, if the name was
 * reused, has another uid ({@code UID_CHANGED}); the eviction request itself carries the uid as a
 * precondition, so a replacement pod is never evicted.
 *
 * <p>A command older than {@link EvictionSettings#maxAge()} when read (its {@code issuedAt} against
 * the clock) is not carried out: it was decided on a state of the cluster that may have passed, say
 * before an outage of the executor, so its result is {@code EXPIRED}. A command issued in the
 * future (clock skew) is carried out.
 *
 * <p>Commands for clusters this executor does not serve are passed over (another executor, with
 * another consumer group, serves them). One thread reads the commands and commits the results; each
 * cluster's commands are carried out on that cluster's {@link ClusterWorker} (issue 40), so a
 * cluster whose API server is slow or down, or whose pods' budgets refuse, does not hold up the
 * others. The results the workers reach are committed together at the next poll, with the offsets
 * that let no unanswered command be skipped ({@link CommandProgress}). {@link #close()} stops it
 * all.
 */
public final class EvictionExecutor extends ClientLoop {

  /** The reporting controller of the executor's Events. */
  public static final String CONTROLLER = "quotaflow.io/eviction-executor";

  private static final Logger LOG = LoggerFactory.getLogger(EvictionExecutor.class);
  private static final Duration POLL = Duration.ofMillis(200);
  // While commands are on the workers, their verdicts are collected this often.
  private static final Duration POLL_BUSY = Duration.ofMillis(20);
  // Commands read and unanswered beyond which reading pauses, and below which it resumes.
  private static final int MAX_UNANSWERED = 1000;
  private static final int RESUME_BELOW = MAX_UNANSWERED / 2;
  private static final Duration LEDGER_TIMEOUT = Duration.ofSeconds(60);

  private final ClusterWorkers workers;
  private final Topic<PodKey, EvictionCommand> commands;
  private final Map<String, Object> consumerConfig;
  private final String instanceId;
  private final String groupId;
  private final Consumer<byte[], byte[]> consumer;
  private final ResultTransactions transactions;
  private final EvictionSettings settings;
  private final Sleeper sleeper;
  private volatile boolean fenced;
  // Whether the consumer must go back to the committed offsets before reading on.
  private boolean rewindPending;
  private final CommandLedger ledger;
  private final Clock clock;
  private final MeterRegistry registry;
  private final KafkaClientMeters kafkaMeters;
  private final CommandProgress progress = new CommandProgress();
  // Verdicts the workers reached, taken in by the Kafka thread.
  private final Queue<ClusterWorker.Done> verdicts = new ConcurrentLinkedQueue<>();
  // The commands on a worker, by id, so that a command read twice meanwhile runs once.
  private final Map<String, ClusterWorker.Job> onWorkers = new HashMap<>();
  // Answers to commit with the next transaction.
  private final CommandAnswers answers;
  private boolean paused;
  private volatile boolean ledgerStale = true;
  // Guarded by itself: close() interrupts the thread only while it waits between two tries of a
  // Kafka call, so the interrupt can only end a wait, never a Kafka client call.
  private final Object commandLock = new Object();
  private boolean inCommand;
  private final CommandChecks checks;

  /**
   * An executor for {@code clusters} that emits no Events. It builds, per cluster, a second client
   * on the same configuration that never retries by itself, and closes it again.
   *
   * @param clusters the clusters whose commands it carries out
   * @param topics the topic catalogue
   * @param kafka Kafka client settings, passed through; group, transactions and isolation are set
   *     here ({@code transactional.id}, when given, is kept)
   * @param settings dry run, attempts, backoff, rate, consumer group and maximum command age
   * @param clock the time stamped on results and against which commands age
   * @param sleeper waits between attempts and for rate-limit tokens
   * @param registry where the counters go
   */
  public EvictionExecutor(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final EvictionSettings settings,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry) {
    this(clusters, topics, kafka, settings, EventSettings.off(), clock, sleeper, registry);
  }

  /**
   * An executor for {@code clusters} that emits Events on the ElasticQuotas whose reclaim starts
   * and on the pods it evicts ({@link ReclaimEvents}).
   *
   * @param clusters the clusters whose commands it carries out
   * @param topics the topic catalogue
   * @param kafka Kafka client settings, passed through
   * @param settings dry run, attempts, backoff, rate, consumer group and maximum command age
   * @param events whether and how often Events are emitted
   * @param clock the time stamped on results and Events, and against which commands age
   * @param sleeper waits between attempts and for rate-limit tokens
   * @param registry where the counters go
   */
  public EvictionExecutor(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final EvictionSettings settings,
      final EventSettings events,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry) {
    this(clusters, topics, kafka, settings, events, clock, sleeper, registry, KafkaProducer::new);
  }

  /**
   * As the public constructor, with the transactional producer made by {@code producers} from its
   * settings (tests hand in a producer that fails on purpose).
   */
  EvictionExecutor(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final EvictionSettings settings,
      final EventSettings events,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry,
      final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory) {
    super("eviction executor");
    Objects.requireNonNull(events, "events");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.checks = new CommandChecks(settings.maxAge(), clock);
    this.commands = topics.evictions();
    this.workers =
        new ClusterWorkers(
            clusters,
            settings,
            events,
            clock,
            sleeper,
            registry,
            job -> running() && progress.current(job.partition(), job.generation()),
            verdicts::add);
    this.kafkaMeters = new KafkaClientMeters(registry);
    this.consumerConfig = ExecutorConfigs.consumerConfig(kafka, settings);
    this.instanceId = GroupMembership.instanceId(consumerConfig);
    this.groupId = settings.groupId();
    this.consumer = kafkaMeters.consumer(new KafkaConsumer<>(consumerConfig));
    final Map<String, Object> producerConfig = ExecutorConfigs.producerConfig(kafka, settings);
    this.transactions =
        new ResultTransactions(
            () -> kafkaMeters.producer(producerFactory.apply(producerConfig)),
            settings,
            this::pause);
    this.ledger =
        new CommandLedger(
            kafkaMeters.consumer(
                new KafkaConsumer<>(ExecutorConfigs.ledgerConfig(kafka, settings))),
            topics.evictionResults(),
            LEDGER_TIMEOUT,
            settings.maxAge().multipliedBy(2).plus(Duration.ofMinutes(10)),
            clock);
    this.answers =
        new CommandAnswers(
            topics.evictionResults(),
            topics.rejected(),
            progress,
            ledger,
            transactions,
            clock,
            registry);
    LOG.info(
        "eviction executor for clusters {}{}, group {} as {}, transactional id {}",
        workers.clusters(),
        settings.dryRun() ? " (dry run)" : "",
        settings.groupId(),
        instanceId,
        producerConfig.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG));
  }

  /**
   * Stops the executor: the command being carried out is abandoned uncommitted (it runs again after
   * a restart).
   */
  @Override
  protected void wakeUp() {
    consumer.wakeup();
    synchronized (commandLock) {
      if (inCommand) {
        interruptLoop();
      }
    }
  }

  @Override
  protected void loop() throws InterruptedException {
    try {
      transactions.initTransactions();
      workers.start();
      // A predecessor under this instance id (this pod before a crash) would hold the partitions
      // until its session timed out.
      GroupMembership.removeDeparted(
          consumerConfig, groupId, instanceId::equals, GroupMembership.ADMIN_TIMEOUT);
      consumer.subscribe(List.of(commands.name()), new Rebalance());
      int timeouts = 0;
      while (running()) {
        beat();
        try {
          poll();
          timeouts = 0;
        } catch (TimeoutException e) {
          // Kafka away (reading committed offsets or the ledger): wait, then read again from the
          // last commit; the loop goes on.
          timeouts++;
          rewindPending = true;
          final Duration wait = settings.backoffAfter(timeouts);
          LOG.warn(
              "Kafka did not answer in time (attempt {}), reading the commands again in {} ms: {}",
              timeouts,
              wait.toMillis(),
              e.toString());
          pause(wait);
        }
      }
    } catch (ProducerFencedException | FencedInstanceIdException e) {
      // Another executor with this transactional id (a new leader) has taken over: its term
      // began, this one ends. Nothing half done is committed (the new leader carries it out).
      fenced = true;
      LOG.warn(
          "eviction executor fenced by another one (a new leader took over): this one stops: {}",
          e.toString());
    }
  }

  /**
   * Whether the loop ended because another executor took over ({@code transactional.id} fenced): a
   * clean end of this executor's term, not a failure.
   */
  public boolean fenced() {
    return fenced;
  }

  /**
   * Waits {@code duration} between two attempts; {@link #close()} ends the wait.
   *
   * @throws InterruptedException when the executor is stopping
   */
  private void pause(final Duration duration) throws InterruptedException {
    synchronized (commandLock) {
      if (!running()) {
        throw new InterruptedException("stopping");
      }
      inCommand = true;
    }
    try {
      sleeper.sleep(duration);
    } finally {
      synchronized (commandLock) {
        inCommand = false;
        Thread.interrupted();
      }
    }
    if (!running()) {
      throw new InterruptedException("stopping");
    }
  }

  private void poll() throws InterruptedException {
    if (rewindPending) {
      rewind();
    }
    final Duration wait = progress.unansweredCount() > 0 ? POLL_BUSY : POLL;
    for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(wait)) {
      if (!running()) {
        return;
      }
      read(record);
    }
    collectVerdicts();
    if (!answers.commit(consumer.groupMetadata())) {
      rewind();
      return;
    }
    flowControl();
  }

  /**
   * Takes in one command: answered at once when it needs no request (unreadable, another executor's
   * cluster, already answered, too old, stale), else queued on its cluster's worker.
   */
  private void read(final ConsumerRecord<byte[], byte[]> record) {
    final TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    final long generation = progress.read(partition, record.offset());
    final PodKey key;
    final EvictionCommand command;
    try {
      key = commands.keyDeserializer().deserialize(record.topic(), record.key());
      command = commands.valueDeserializer().deserialize(record.topic(), record.value());
    } catch (KafkaException e) {
      LOG.warn(
          "unreadable eviction command at {} offset {}: {}",
          partition,
          record.offset(),
          e.getMessage());
      counter("quotaflow.evictions.rejected").increment();
      answers.deadLetter(partition, record, e);
      return;
    }
    final Optional<ClusterWorker> worker =
        Optional.ofNullable(key).flatMap(k -> workers.of(k.getCluster()));
    if (command == null || worker.isEmpty()) {
      answers.passOver(partition, record.offset());
      return;
    }
    if (ledgerStale) {
      ledger.catchUp();
      ledgerStale = false;
    }
    final ClusterWorker.Job queued = onWorkers.get(command.getId());
    if (ledger.isDone(command.getId())
        || (queued != null && progress.current(queued.partition(), queued.generation()))) {
      LOG.info("command {} already has a result; not carrying it out again", command.getId());
      counter("quotaflow.evictions.duplicates", "cluster", key.getCluster()).increment();
      answers.passOver(partition, record.offset());
      return;
    }
    final Optional<Verdict> refused =
        checks.refusal(
            key,
            command,
            record.timestampType() == TimestampType.LOG_APPEND_TIME ? record.timestamp() : -1L);
    if (refused.isPresent()) {
      answers.verdict(partition, record.offset(), key, command, refused.get());
      return;
    }
    final ClusterWorker.Job job =
        new ClusterWorker.Job(partition, record.offset(), generation, key, command);
    onWorkers.put(command.getId(), job);
    worker.get().submit(job);
  }

  /** Takes in the verdicts the workers reached since the last poll. */
  private void collectVerdicts() {
    for (ClusterWorker.Done done = verdicts.poll(); done != null; done = verdicts.poll()) {
      final ClusterWorker.Job job = done.job();
      onWorkers.remove(job.command().getId(), job);
      if (progress.current(job.partition(), job.generation())) {
        answers.verdict(job.partition(), job.offset(), job.key(), job.command(), done.verdict());
      }
    }
  }

  /**
   * Pauses reading while too many commands wait on the workers (a cluster whose API server does not
   * answer), so that they do not pile up in memory; resumes once half of them are answered.
   */
  private void flowControl() {
    final int unanswered = progress.unansweredCount();
    if (!paused && unanswered >= MAX_UNANSWERED) {
      LOG.warn("{} commands wait on the clusters' workers: reading pauses", unanswered);
      consumer.pause(consumer.assignment());
      paused = true;
    } else if (paused && unanswered < RESUME_BELOW) {
      consumer.resume(consumer.paused());
      paused = false;
    }
  }

  /**
   * Asks {@code gaps} before each command whether the engine's picture of its cluster may have
   * missed changes since the command was decided (the source beside this executor knows); such a
   * command is refused {@code STALE}. Without it only the command's age is checked.
   */
  public void checkInputsWith(final InputGaps gaps) {
    checks.checkInputsWith(gaps);
  }

  /** Goes back to the last committed offsets, forgetting what was not committed. */
  private void rewind() {
    rewindPending = true;
    answers.clear();
    onWorkers.clear();
    final Set<TopicPartition> known = new HashSet<>(consumer.assignment());
    known.addAll(progress.partitions());
    progress.reset(known);
    final Map<TopicPartition, OffsetAndMetadata> committed =
        consumer.committed(consumer.assignment());
    for (final TopicPartition partition : consumer.assignment()) {
      final OffsetAndMetadata offset = committed.get(partition);
      if (offset == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, offset);
      }
    }
    rewindPending = false;
  }

  private Counter counter(final String name, final String... tags) {
    return Counter.builder(name).tags(tags).register(registry);
  }

  @Override
  protected void closeClients() {
    closeQuietly(kafkaMeters);
    closeQuietly(ledger);
    closeQuietly(transactions);
    closeQuietly(() -> GroupMembership.close(consumer));
    closeQuietly(workers);
  }

  private static void closeQuietly(final AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("closing {} failed: {}", closeable, e.toString());
    }
  }

  /** Marks the ledger stale when partitions arrive: their results may come from another owner. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
      // Their commands are read again by the next owner: answers not yet committed are dropped,
      // and their commands still queued on the workers are not started.
      progress.reset(partitions);
      answers.drop(partitions);
    }

    @Override
    public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
      ledgerStale = true;
    }
  }
}

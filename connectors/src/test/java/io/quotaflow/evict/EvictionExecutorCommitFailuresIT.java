package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.RecordingSleeper;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The executor's transactions when Kafka misbehaves (issue 26, survive don't exit): its producer is
 * a {@link MockProducer} that fails as a real one does, its consumers read a real broker.
 */
class EvictionExecutorCommitFailuresIT {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("commit");

  private final List<EvictionExecutor> executors = new ArrayList<>();
  private final List<FlakyProducer> producers = new ArrayList<>();
  private final RecordingSleeper sleeper = new RecordingSleeper();

  @AfterEach
  void stopExecutors() {
    executors.forEach(EvictionExecutor::close);
  }

  @Test
  void aCommitThatTimesOutIsCommittedAgainAndTheLoopGoesOn() {
    final EvictionExecutor executor = start(() -> new FlakyProducer(2, 0));

    final EvictionCommand first = send("gone-1");
    await().atMost(ConnectorRig.WAIT).until(() -> results().contains(first.getId()));
    final EvictionCommand second = send("gone-2");
    await().atMost(ConnectorRig.WAIT).until(() -> results().contains(second.getId()));

    assertThat(executor.stopped()).as("the loop goes on").isNotDone();
    assertThat(producers).as("the same producer throughout").hasSize(1);
    assertThat(producers.get(0).commitCalls)
        .as("two timed-out commits and two that worked")
        .hasValue(4);
    assertThat(producers.get(0).aborts).as("a timed-out commit is not aborted").hasValue(0);
    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(outcomes()).containsOnly(EvictionOutcome.GONE);
  }

  @Test
  void aProducerThatCannotAbortIsReplacedAndTheLoopGoesOn() {
    final EvictionExecutor executor =
        start(() -> new FlakyProducer(0, producers.isEmpty() ? 1 : 0));

    final EvictionCommand command = send("gone-3");
    await().atMost(ConnectorRig.WAIT).until(() -> results().contains(command.getId()));

    assertThat(executor.stopped()).isNotDone();
    assertThat(producers).as("the broken producer was replaced").hasSize(2);
    assertThat(producers.get(0).closed()).isTrue();
    assertThat(producers.get(1).transactionInitialized()).isTrue();
  }

  @Test
  void aFencedProducerEndsTheTermCleanly() {
    final EvictionExecutor executor = start(FlakyProducer::fenced);

    send("gone-4");

    await().atMost(ConnectorRig.WAIT).until(() -> executor.stopped().isDone());
    assertThat(executor.stopped()).as("not a failure").isCompletedWithValue(null);
    assertThat(executor.fenced()).isTrue();
    assertThat(results()).isEmpty();
  }

  @Test
  void theTransactionalIdIsTheSameOnEveryReplicaAndComesFromTheGroup() {
    final EvictionSettings settings = settings();

    final Object id =
        ExecutorConfigs.producerConfig(rig.kafka(), settings)
            .get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);

    assertThat(id).isEqualTo(settings.groupId() + "-results");
    assertThat(id.toString()).doesNotContain(io.quotaflow.cluster.GroupMembership.instanceName());
    assertThat(
            ExecutorConfigs.producerConfig(
                    Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "given"), settings)
                .get(ProducerConfig.TRANSACTIONAL_ID_CONFIG))
        .as("a transactional.id in the Kafka settings wins")
        .isEqualTo("given");
  }

  private EvictionExecutor start(final java.util.function.Supplier<FlakyProducer> make) {
    final EvictionExecutor executor =
        new EvictionExecutor(
            List.of(rig.mock().cluster()),
            rig.topics(),
            rig.kafka(),
            settings(),
            EventSettings.off(),
            Clock.fixed(NOW, ZoneOffset.UTC),
            sleeper,
            rig.registry(),
            config -> {
              final FlakyProducer producer = make.get();
              producers.add(producer);
              return producer;
            });
    executors.add(executor);
    executor.start();
    return executor;
  }

  private static EvictionSettings settings() {
    return new EvictionSettings(
        false,
        3,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        100,
        100,
        "commit-" + UUID.randomUUID(),
        Duration.ofMinutes(10));
  }

  private EvictionCommand send(final String pod) {
    final PodKey key = Keys.pod(rig.namespace(), pod);
    final EvictionCommand command =
        EvictionCommand.newBuilder()
            .setId(key.getCluster() + "/" + key.getNamespace() + "/" + pod + "/uid")
            .setPodUid("uid-" + pod)
            .setGroup("team-a")
            .setReason("team-a uses more cpu than its runtime")
            .setIssuedAt(NOW.minusSeconds(1))
            .build();
    rig.send(rig.topics().evictions(), key, command);
    return command;
  }

  /** The command ids of the results the producers committed. */
  private List<String> results() {
    return committed().stream().map(EvictionResult::getCommandId).toList();
  }

  private List<EvictionOutcome> outcomes() {
    return committed().stream().map(EvictionResult::getOutcome).toList();
  }

  private List<EvictionResult> committed() {
    final String topic = rig.topics().evictionResults().name();
    return List.copyOf(producers).stream()
        .flatMap(producer -> producer.history().stream())
        .filter(record -> record.topic().equals(topic))
        .map(
            record ->
                rig.topics()
                    .evictionResults()
                    .valueDeserializer()
                    .deserialize(topic, record.value()))
        .toList();
  }

  /**
   * A transactional producer whose first {@code commitTimeouts} commits time out (after which, like
   * Kafka's producer, it refuses to abort: the commit must be repeated), whose first {@code
   * brokenOffsets} sends of offsets fail and which then cannot abort either (a fatal state).
   */
  static final class FlakyProducer extends MockProducer<byte[], byte[]> {
    final AtomicInteger commitCalls = new AtomicInteger();
    final AtomicInteger aborts = new AtomicInteger();
    private final int commitTimeouts;
    private int brokenOffsets;
    private boolean commitPending;
    private boolean broken;
    private boolean fenceAfterInit;

    FlakyProducer(final int commitTimeouts, final int brokenOffsets) {
      super(true, new FirstPartition(), new ByteArraySerializer(), new ByteArraySerializer());
      this.commitTimeouts = commitTimeouts;
      this.brokenOffsets = brokenOffsets;
    }

    /** Fenced once its transactions are initialised: a new leader took over meanwhile. */
    static FlakyProducer fenced() {
      final FlakyProducer producer = new FlakyProducer(0, 0);
      producer.fenceAfterInit = true;
      return producer;
    }

    @Override
    public void initTransactions() {
      super.initTransactions();
      if (fenceAfterInit) {
        fenceProducer();
      }
    }

    @Override
    public void sendOffsetsToTransaction(
        final Map<
                org.apache.kafka.common.TopicPartition,
                org.apache.kafka.clients.consumer.OffsetAndMetadata>
            offsets,
        final org.apache.kafka.clients.consumer.ConsumerGroupMetadata group) {
      if (brokenOffsets > 0) {
        brokenOffsets--;
        broken = true;
        throw new KafkaException("the transaction coordinator failed");
      }
      super.sendOffsetsToTransaction(offsets, group);
    }

    @Override
    public void commitTransaction() {
      if (commitCalls.incrementAndGet() <= commitTimeouts) {
        commitPending = true;
        throw new TimeoutException("Timeout expired after 60000ms while awaiting EndTxn(COMMIT)");
      }
      commitPending = false;
      super.commitTransaction();
    }

    @Override
    public void abortTransaction() {
      aborts.incrementAndGet();
      if (commitPending) {
        throw new KafkaException(
            "TransactionalId commit-1: Invalid transition attempted from state"
                + " COMMITTING_TRANSACTION to state ABORTING_TRANSACTION");
      }
      if (broken) {
        throw new KafkaException(
            "Cannot execute transactional method because we are in an error state");
      }
      super.abortTransaction();
    }
  }

  /** Everything on partition 0: the mock producer has no cluster to partition by. */
  public static final class FirstPartition implements Partitioner {
    @Override
    public int partition(
        final String topic,
        final Object key,
        final byte[] keyBytes,
        final Object value,
        final byte[] valueBytes,
        final Cluster cluster) {
      return 0;
    }

    @Override
    public void close() {}

    @Override
    public void configure(final Map<String, ?> configs) {}
  }
}

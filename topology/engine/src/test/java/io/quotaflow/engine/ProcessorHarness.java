package io.quotaflow.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The cluster-quota processor alone on a {@link MockProcessorContext}, over in-memory stores that
 * outlive it: {@link #restart()} throws the processor away and starts a new one on the same stores,
 * as a restarted or migrated task does after restoring its changelogs.
 */
final class ProcessorHarness {
  private final EngineConfig config;
  private final List<StateStore> stores = new ArrayList<>();
  private final List<Scheduled> scheduled = new ArrayList<>();
  private MockProcessorContext<SpecificRecord, SpecificRecord> context;
  private ClusterQuotaProcessor processor;
  private Instant now = EngineDriver.START;
  // Outlives the processors, as the instance's registry outlives its tasks.
  private final EngineMetrics metrics = new EngineMetrics(new SimpleMeterRegistry());
  private final RestoreAudit restores;
  private InputResumeAudit resumes = InputResumeAudit.trusting();

  ProcessorHarness() {
    this(RestoreAudit.trusting());
  }

  /** A harness whose processors ask {@code restores} about their restores. */
  ProcessorHarness(final RestoreAudit restores) {
    // Inputs are fed without the connectors' markers.
    this(
        EngineConfig.builder().set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false").build(),
        restores);
  }

  /** A harness whose processors run with {@code config}. */
  ProcessorHarness(final EngineConfig config, final RestoreAudit restores) {
    this.config = config;
    this.restores = restores;
    final MockProcessorContext<SpecificRecord, SpecificRecord> first = new MockProcessorContext<>();
    // The stores the processor's features declare, on the heap whatever the configuration says.
    final List<StoreBuilder<?>> builders =
        new ArrayList<>(
            ClusterFeatures.stores(
                ClusterFeatures.create(config, metrics, StoreKind.IN_MEMORY, StoreKind.IN_MEMORY),
                StoreKind.IN_MEMORY));
    builders.forEach(
        builder -> {
          final StateStore store = builder.withLoggingDisabled().build();
          store.init(first.getStateStoreContext(), store);
          stores.add(store);
        });
    start();
  }

  /** The audit this harness's processors ask about their restores. */
  RestoreAudit restores() {
    return restores;
  }

  /** The processors started from now on ask {@code audit} where they resume their inputs. */
  ProcessorHarness resumes(final InputResumeAudit audit) {
    resumes = audit;
    return this;
  }

  /** The records fed from now on come from {@code offset} of {@code topic}'s {@code partition}. */
  ProcessorHarness at(final String topic, final int partition, final long offset) {
    context.setRecordMetadata(topic, partition, offset);
    return this;
  }

  /** The meters every processor of this harness records in. */
  EngineMetrics metrics() {
    return metrics;
  }

  /**
   * The same processor closed and initialised again over the same stores, as Kafka Streams revives
   * a task it closed dirty.
   */
  ProcessorHarness revive() {
    processor.close();
    initialise();
    return this;
  }

  /** A new processor over the same stores. */
  ProcessorHarness restart() {
    processor.close();
    start();
    return this;
  }

  private void start() {
    processor = new ClusterQuotaProcessor(config, metrics, restores, resumes);
    initialise();
  }

  private void initialise() {
    context = new MockProcessorContext<>();
    context.setCurrentSystemTimeMs(now.toEpochMilli());
    stores.forEach(context::addStateStore);
    processor.init(context);
    scheduled.clear();
    for (final CapturedPunctuator punctuator : context.scheduledPunctuators()) {
      scheduled.add(new Scheduled(punctuator, now.plus(punctuator.getInterval())));
    }
  }

  ProcessorHarness pod(final String cluster, final String namespace, final Inputs.PodBuilder pod) {
    return event(
        InputEvents.pod(
            new PodKey(cluster, namespace, pod.name()), pod.build(), InputEvents.Source.UNKNOWN));
  }

  ProcessorHarness deletePod(final String cluster, final String namespace, final String name) {
    return event(
        InputEvents.pod(
            new PodKey(cluster, namespace, name), (PodState) null, InputEvents.Source.UNKNOWN));
  }

  ProcessorHarness quota(final String cluster, final String name, final QuotaSpec spec) {
    return event(InputEvents.quota(new QuotaKey(cluster, name), spec, InputEvents.Source.UNKNOWN));
  }

  ProcessorHarness node(final String cluster, final String name, final NodeState node) {
    return event(InputEvents.node(new NodeKey(cluster, name), node, InputEvents.Source.UNKNOWN));
  }

  ProcessorHarness deleteNode(final String cluster, final String name) {
    return event(
        InputEvents.node(new NodeKey(cluster, name), (NodeState) null, InputEvents.Source.UNKNOWN));
  }

  ProcessorHarness profile(final String cluster, final String name, final QuotaProfileSpec spec) {
    return event(
        InputEvents.profile(new ProfileKey(cluster, name), spec, InputEvents.Source.UNKNOWN));
  }

  /** The executor's result with {@code outcome} for {@code command}. */
  ProcessorHarness answer(
      final Record<PodKey, EvictionCommand> command, final EvictionOutcome outcome) {
    return event(
        InputEvents.evictionResult(
            command.key(),
            Inputs.result(command.value(), outcome, now),
            InputEvents.Source.UNKNOWN));
  }

  /**
   * Writes {@code event} under {@code id} straight into the cluster-inputs store, past the
   * processor: a stored input no processing has checked, as a poison record leaves one behind.
   */
  @SuppressWarnings("unchecked")
  ProcessorHarness storeInput(final InputId id, final ClusterEvent event) {
    stores.stream()
        .filter(store -> TopologyNames.CLUSTER_INPUTS_STORE.equals(store.name()))
        .map(store -> (KeyValueStore<InputId, ClusterEvent>) store)
        .findFirst()
        .orElseThrow()
        .put(id, event);
    return this;
  }

  /** Any input event, as the mappers make it (a DRA object's, for one). */
  ProcessorHarness input(final ClusterEvent event) {
    return event(event);
  }

  /** Any input event, with the record headers {@code headers} (a writer's, say). */
  ProcessorHarness input(final ClusterEvent event, final Headers headers) {
    processor.process(new Record<>(event.getCluster(), event, now.toEpochMilli(), headers));
    return this;
  }

  private ProcessorHarness event(final ClusterEvent event) {
    processor.process(new Record<>(event.getCluster(), event, now.toEpochMilli()));
    return this;
  }

  /** Moves wall-clock time on, running every punctuation that falls due, in time order. */
  ProcessorHarness advance(final Duration duration) {
    final Instant target = now.plus(duration);
    while (true) {
      final Scheduled next =
          scheduled.stream()
              .filter(s -> !s.punctuator.cancelled() && !s.due.isAfter(target))
              .min((a, b) -> a.due.compareTo(b.due))
              .orElse(null);
      if (next == null) {
        break;
      }
      now = next.due;
      context.setCurrentSystemTimeMs(now.toEpochMilli());
      next.punctuator.getPunctuator().punctuate(now.toEpochMilli());
      next.due = next.due.plus(next.punctuator.getInterval());
    }
    now = target;
    return this;
  }

  /** The harness's wall-clock time. */
  Instant now() {
    return now;
  }

  ProcessorHarness recompute() {
    return advance(Duration.ofMillis(100));
  }

  List<Record<QuotaKey, GroupRuntime>> runtime() {
    return drain(TopologyNames.RUNTIME_SINK);
  }

  List<Record<PodKey, PodQuotaClass>> podClasses() {
    return drain(TopologyNames.POD_CLASSES_SINK);
  }

  List<Record<PodKey, EvictionCommand>> evictions() {
    return drain(TopologyNames.EVICTIONS_SINK);
  }

  @SuppressWarnings("unchecked")
  private <K, V> List<Record<K, V>> drain(final String sink) {
    final List<Record<K, V>> records = new ArrayList<>();
    context.forwarded(sink).forEach(forward -> records.add((Record<K, V>) forward.record()));
    final List<
            MockProcessorContext.CapturedForward<
                ? extends SpecificRecord, ? extends SpecificRecord>>
        others = new ArrayList<>(context.forwarded());
    others.removeIf(forward -> forward.childName().orElse("").equals(sink));
    context.resetForwards();
    others.forEach(forward -> context.forward(forward.record(), forward.childName().orElseThrow()));
    return records;
  }

  /** One scheduled punctuation and when it is next due. */
  private static final class Scheduled {
    private final CapturedPunctuator punctuator;
    private Instant due;

    Scheduled(final CapturedPunctuator punctuator, final Instant due) {
      this.punctuator = punctuator;
      this.due = due;
    }
  }
}

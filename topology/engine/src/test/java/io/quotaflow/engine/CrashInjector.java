package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.internals.FailedProcessingException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.ProcessorWrapper;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.WrappedFixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.WrappedProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A crash for tests, as Kafka Streams' {@code processor.wrapper.class}: once {@link #arm} is called
 * for an application, its cluster-quota processor throws on the next record, which kills the stream
 * thread mid-transaction (the engine shuts the instance down, the transaction is aborted and
 * nothing of it is committed), as a killed process would leave it. It also makes poison records
 * ({@link #poison}): readable records whose processing throws, as a bug met by one record would.
 */
public final class CrashInjector implements ProcessorWrapper {
  // Keyed by application id: the wrapper is created by Kafka Streams from its class name.
  private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();
  private static final Set<String> CORRUPTING = ConcurrentHashMap.newKeySet();
  private static final Map<String, Predicate<ClusterEvent>> POISONS = new ConcurrentHashMap<>();
  private static final Map<String, CountDownLatch> WEDGES = new ConcurrentHashMap<>();

  private String applicationId = "";

  /**
   * {@code settings} with this wrapper installed, for an application a test means to crash: the
   * crash shuts the instance down as a killed process would end it (no stream thread is replaced,
   * unless {@code settings} say otherwise).
   */
  public static Map<String, String> installedIn(final Map<String, String> settings) {
    final Map<String, String> all = new LinkedHashMap<>(settings);
    all.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, CrashInjector.class.getName());
    all.putIfAbsent(EngineSettings.STREAM_THREAD_MAX_REPLACEMENTS.key(), "0");
    return all;
  }

  /** The next record the cluster-quota processor of {@code applicationId} sees crashes it. */
  static void arm(final String applicationId) {
    ARMED.add(applicationId);
  }

  /**
   * The next record the cluster-quota processor of {@code applicationId} sees reports its task
   * corrupted, as a failed commit or a fenced producer makes Kafka Streams do: the task is closed
   * dirty, its state wiped and restored, and the stream thread goes on.
   */
  static void corruptNextTask(final String applicationId) {
    CORRUPTING.add(applicationId);
  }

  /**
   * The next record the cluster-quota processor of {@code applicationId} sees wedges its stream
   * thread until {@code release} is counted down, as a call that never returns would (issue 40.11).
   */
  public static void wedge(final String applicationId, final CountDownLatch release) {
    WEDGES.put(applicationId, release);
  }

  /**
   * Every event {@code poison} accepts, each time the cluster-quota processor of {@code
   * applicationId} reads it, throws once the processor has applied it, as a bug in applying it
   * would (the event is in the cluster's inputs by then): a poison record, which the engine's
   * processing exception handler must meet, not a crash.
   */
  static void poison(final String applicationId, final Predicate<ClusterEvent> poison) {
    POISONS.put(applicationId, poison);
  }

  @Override
  public void configure(final Map<String, ?> configs) {
    applicationId = String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG));
  }

  @Override
  public <KIn, VIn, KOut, VOut>
      WrappedProcessorSupplier<KIn, VIn, KOut, VOut> wrapProcessorSupplier(
          final String processorName, final ProcessorSupplier<KIn, VIn, KOut, VOut> supplier) {
    if (!TopologyNames.CLUSTER_QUOTA.equals(processorName)) {
      return ProcessorWrapper.asWrapped(supplier);
    }
    return new WrappedProcessorSupplier<>() {
      @Override
      public Processor<KIn, VIn, KOut, VOut> get() {
        return new Crashing<>(supplier.get(), applicationId);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return supplier.stores();
      }
    };
  }

  @Override
  public <KIn, VIn, VOut>
      WrappedFixedKeyProcessorSupplier<KIn, VIn, VOut> wrapFixedKeyProcessorSupplier(
          final String processorName, final FixedKeyProcessorSupplier<KIn, VIn, VOut> supplier) {
    return ProcessorWrapper.asWrappedFixedKey(supplier);
  }

  private static final class Crashing<KIn, VIn, KOut, VOut>
      implements Processor<KIn, VIn, KOut, VOut> {
    private final Processor<KIn, VIn, KOut, VOut> delegate;
    private final String applicationId;
    private TaskId task;

    Crashing(final Processor<KIn, VIn, KOut, VOut> delegate, final String applicationId) {
      this.delegate = delegate;
      this.applicationId = applicationId;
    }

    @Override
    public void init(final ProcessorContext<KOut, VOut> context) {
      task = context.taskId();
      delegate.init(context);
    }

    @Override
    public void process(final Record<KIn, VIn> record) {
      if (ARMED.remove(applicationId)) {
        // Stands for a killed process, not for a poison record: thrown as a failure the
        // processing exception handler already decided on, so the cluster is not quarantined and
        // the stream thread fails.
        throw new FailedProcessingException(
            TopologyNames.CLUSTER_QUOTA,
            new IllegalStateException("Injected crash of " + applicationId));
      }
      final CountDownLatch wedge = WEDGES.remove(applicationId);
      if (wedge != null) {
        awaitUninterruptibly(wedge);
      }
      if (CORRUPTING.remove(applicationId)) {
        throw new TaskCorruptedException(Set.of(task));
      }
      delegate.process(record);
      final Predicate<ClusterEvent> poison = POISONS.get(applicationId);
      if (poison != null && record.value() instanceof ClusterEvent event && poison.test(event)) {
        throw new IllegalStateException("Injected poison: " + event.getName());
      }
    }

    @Override
    public void close() {
      delegate.close();
    }

    private static void awaitUninterruptibly(final CountDownLatch latch) {
      boolean interrupted = false;
      while (true) {
        try {
          latch.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

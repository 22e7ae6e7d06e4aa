package io.quotaflow.connect;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;

/**
 * The JVM's memory, GC, thread and CPU meters ({@code jvm_memory_*}, {@code jvm_gc_*}, {@code
 * jvm_threads_*}, {@code process_cpu_usage}) bound to a registry, as every long-running command
 * binds them. Close it to stop listening for GC events.
 */
public final class JvmMeters implements AutoCloseable {

  private final JvmGcMetrics gc;

  private JvmMeters(final JvmGcMetrics gc) {
    this.gc = gc;
  }

  /** Binds the meters to {@code registry}. */
  public static JvmMeters bindTo(final MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    final JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return new JvmMeters(gc);
  }

  @Override
  public void close() {
    gc.close();
  }
}

package io.quotaflow.bench.cluster;

import io.quotaflow.quota.ResourceList;
import java.util.List;

/** The three resource dimensions every synthetic cluster uses, in canonical units (SPEC 2). */
public final class Dimensions {

  /** Milli-cores. */
  public static final String CPU = ResourceList.CPU;

  /** Bytes. */
  public static final String MEMORY = ResourceList.MEMORY;

  /** Devices. */
  public static final String GPU = "nvidia.com/gpu";

  /** In a fixed order: index 0 is cpu, 1 memory, 2 gpu. */
  public static final List<String> ALL = List.of(CPU, MEMORY, GPU);

  /** One gibibyte in bytes. */
  public static final long GI = 1L << 30;

  private Dimensions() {}

  /** {@code cpu} milli-cpu and {@code memory} bytes. */
  public static ResourceList cpuMemory(long cpu, long memory) {
    return ResourceList.of(CPU, cpu, MEMORY, memory);
  }

  /** {@code cpu} milli-cpu, {@code memory} bytes and {@code gpu} GPUs. */
  public static ResourceList cpuMemoryGpu(long cpu, long memory, long gpu) {
    return ResourceList.of(CPU, cpu, MEMORY, memory, GPU, gpu);
  }
}

package io.quotaflow.bench.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Memory and disk at one moment: heap used after a full collection, the process's resident set (and
 * its peak) from {@code /proc/self/status}, and the apparent size of a state directory.
 *
 * @param heapAfterGcBytes heap used after {@code System.gc()}
 * @param rssBytes VmRSS (0 where /proc is missing)
 * @param peakRssBytes VmHWM (0 where /proc is missing)
 * @param stateBytes bytes in files under the state directory (0 without one)
 */
record Footprint(long heapAfterGcBytes, long rssBytes, long peakRssBytes, long stateBytes) {

  static Footprint now(final Path stateDir) {
    System.gc();
    System.gc();
    final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Footprint(heap, status("VmRSS:"), status("VmHWM:"), size(stateDir));
  }

  private static long status(final String field) {
    final Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return 0;
    }
    try {
      final List<String> lines = Files.readAllLines(status);
      for (final String line : lines) {
        if (line.startsWith(field)) {
          // "VmRSS:    123456 kB"
          final String[] parts = line.substring(field.length()).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024;
        }
      }
      return 0;
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(final Path dir) {
    if (dir == null || !Files.isDirectory(dir)) {
      return 0;
    }
    for (int attempt = 1; ; attempt++) {
      try (Stream<Path> files = Files.walk(dir)) {
        return files.filter(Files::isRegularFile).mapToLong(Footprint::sizeOf).sum();
      } catch (final IOException | UncheckedIOException e) {
        // RocksDB may remove a directory while we walk it: walk again, a few times at most.
        if (attempt == 3) {
          return -1;
        }
      }
    }
  }

  private static long sizeOf(final Path file) {
    try {
      return Files.size(file);
    } catch (final IOException e) {
      // RocksDB removes files while compacting; a vanished file has no size.
      return 0;
    }
  }
}

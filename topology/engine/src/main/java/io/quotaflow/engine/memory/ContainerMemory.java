package io.quotaflow.engine.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The memory limit of the container the process runs in, read from its cgroup (v2, then v1); empty
 * when there is none (a bare machine, a cgroup without a limit).
 */
final class ContainerMemory {

  /** A v1 limit at or above this is "no limit" (the kernel's page-rounded LONG_MAX). */
  private static final long V1_UNLIMITED = 1L << 60;

  private static final List<Path> LIMIT_FILES =
      List.of(
          Path.of("/sys/fs/cgroup/memory.max"),
          Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes"));

  private ContainerMemory() {}

  /** The limit of this process's container. */
  static OptionalLong limit() {
    return limit(LIMIT_FILES);
  }

  /** The limit the first readable file states. */
  static OptionalLong limit(final List<Path> files) {
    for (final Path file : files) {
      final String text;
      try {
        text = Files.readString(file, StandardCharsets.US_ASCII).strip();
      } catch (final IOException | SecurityException unreadable) {
        continue;
      }
      return parse(text);
    }
    return OptionalLong.empty();
  }

  /** A limit file's content: bytes, or {@code max}. */
  static OptionalLong parse(final String text) {
    if (text.equals("max")) {
      return OptionalLong.empty();
    }
    try {
      final long bytes = Long.parseLong(text);
      return bytes <= 0 || bytes >= V1_UNLIMITED ? OptionalLong.empty() : OptionalLong.of(bytes);
    } catch (final NumberFormatException unreadable) {
      return OptionalLong.empty();
    }
  }
}

package io.quotaflow.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The embedded broker's port, kept beside its data so that local started again on the same data
 * directory listens where it did.
 *
 * <p>A broker that comes back on another port still has its old address in its own metadata until
 * it registers again, and a transaction left open by a crash ({@code kill -9}) is aborted by
 * markers sent to that address: seen on a busy machine, they went to the dead port, the transaction
 * stayed open, and the restarted engine waited for its committed offsets for minutes. The same port
 * keeps the old address right. A port taken meanwhile by another process is given up for a free
 * one.
 */
final class BrokerPortFile {

  private final Path file;

  private BrokerPortFile(final Path file) {
    this.file = file;
  }

  /** The port file of the data directory {@code dataDir}. */
  static BrokerPortFile in(final Path dataDir) {
    return new BrokerPortFile(dataDir.resolve("kafka-port"));
  }

  /** The port the broker had last time; empty when none was kept or the file does not parse. */
  OptionalInt previous() {
    try {
      final String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
      final int port = Integer.parseInt(text);
      return port > 0 && port < 65_536 ? OptionalInt.of(port) : OptionalInt.empty();
    } catch (final IOException | NumberFormatException unreadable) {
      return OptionalInt.empty();
    }
  }

  /** Keeps {@code port} for the next start. */
  void keep(final int port) {
    try {
      Files.writeString(file, port + "\n", StandardCharsets.US_ASCII);
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
  }
}

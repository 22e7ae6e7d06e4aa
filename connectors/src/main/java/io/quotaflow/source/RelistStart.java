package io.quotaflow.source;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * When the relist that healed a kind's last gap started, by the broker's clock (issue 40): the time
 * its start marker was appended to the input topic (log-append time), never this process's clock.
 * The engine's commands are compared with it; with the connectors' clock an hour ahead every
 * command of the next hour was refused {@code STALE}, and with it stepped back a command decided
 * before the relist, on inputs that had missed changes, was carried out.
 */
final class RelistStart {

  private volatile Instant at = Instant.MIN;

  /**
   * A snapshot that healed a gap was written whole.
   *
   * @param stamped when this process started it, by its own clock: used only when the broker's time
   *     is unknown (its start marker written before the informer's first list; on an input topic
   *     stamped by its producers the acknowledgement carries this same clock)
   * @param startMarker the acknowledged write of its start marker, if this snapshot wrote one
   */
  void healed(final Instant stamped, final Optional<Future<RecordMetadata>> startMarker) {
    at = startMarker.flatMap(RelistStart::appendedAt).orElse(stamped);
  }

  /** The relist's start if {@code decidedAt} (the broker's time at most) came before it. */
  Optional<Instant> after(final Instant decidedAt) {
    final Instant start = at;
    return decidedAt.isBefore(start) ? Optional.of(start) : Optional.empty();
  }

  private static Optional<Instant> appendedAt(final Future<RecordMetadata> write) {
    if (!write.isDone()) {
      return Optional.empty();
    }
    try {
      final RecordMetadata metadata = write.get();
      return metadata.hasTimestamp()
          ? Optional.of(Instant.ofEpochMilli(metadata.timestamp()))
          : Optional.empty();
    } catch (ExecutionException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}

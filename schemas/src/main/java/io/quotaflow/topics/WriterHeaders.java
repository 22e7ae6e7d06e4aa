package io.quotaflow.topics;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Who wrote a record of an input topic: the headers the connectors put on every record they write
 * (objects, tombstones, markers), so the engine can tell two writers of one cluster name apart.
 *
 * <p>{@value #CLUSTER_UID} holds the UID of the cluster's {@code kube-system} namespace (its
 * identity: two clusters never share it, and it outlives the connectors); {@value #EPOCH} the
 * writer's epoch, the term of its leader election (the Lease's {@code leaseTransitions}), so an old
 * leader's records carry a lower one than its successor's. Both are UTF-8 text (readable with any
 * Kafka tool). Headers rather than fields: every record carries them at no schema change, and
 * readers that do not know them ignore them (docs/topics.md).
 */
public final class WriterHeaders {
  /** The header that holds the UID of the cluster's kube-system namespace. */
  public static final String CLUSTER_UID = "quotaflow-cluster-uid";

  /** The header that holds the writer's epoch, a decimal number of at least 0. */
  public static final String EPOCH = "quotaflow-writer-epoch";

  // A Kubernetes UID is an RFC 4122 UUID; anything printable and short is accepted, so a reader
  // does not refuse an API server that words it otherwise.
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9-]{1,64}");

  private WriterHeaders() {}

  /**
   * One writer of a cluster's records.
   *
   * @param clusterUid the UID of the cluster's kube-system namespace; empty when the writer could
   *     not read it (no permission): then only its epoch is judged
   * @param epoch the writer's epoch, at least 0
   */
  public record Writer(Optional<String> clusterUid, long epoch) {
    /** Checks the parts. */
    public Writer {
      Objects.requireNonNull(clusterUid, "clusterUid");
      clusterUid.ifPresent(
          uid -> {
            if (!UID.matcher(uid).matches()) {
              throw new IllegalArgumentException("not a namespace UID: \"" + uid + "\"");
            }
          });
      if (epoch < 0) {
        throw new IllegalArgumentException("a writer epoch is at least 0, not " + epoch);
      }
    }

    /** Adds this writer's headers to {@code headers}. */
    public Headers addTo(final Headers headers) {
      clusterUid.ifPresent(uid -> headers.add(header(CLUSTER_UID, uid)));
      headers.add(header(EPOCH, Long.toString(epoch)));
      return headers;
    }

    @Override
    public String toString() {
      return clusterUid.orElse("(no cluster UID)") + " epoch " + epoch;
    }
  }

  /**
   * The writer a record's headers name; empty for a record without an epoch header (written by an
   * older connectors release, or by another application).
   *
   * @throws IllegalArgumentException when a header is there but cannot be read
   */
  public static Optional<Writer> read(final Headers headers) {
    if (headers == null) {
      return Optional.empty();
    }
    final Header epoch = headers.lastHeader(EPOCH);
    if (epoch == null) {
      return Optional.empty();
    }
    final Header uid = headers.lastHeader(CLUSTER_UID);
    final long number;
    try {
      number = Long.parseLong(text(epoch));
    } catch (final NumberFormatException e) {
      throw new IllegalArgumentException("unreadable " + EPOCH + " header: " + e.getMessage());
    }
    return Optional.of(new Writer(Optional.ofNullable(uid).map(WriterHeaders::text), number));
  }

  private static Header header(final String name, final String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(final Header header) {
    return header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
  }
}

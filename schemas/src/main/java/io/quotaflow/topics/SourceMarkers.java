package io.quotaflow.topics;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.serde.AvroSerde;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The connectors' control records on the input topics (see {@link SourceMarker}): a record whose
 * key names a cluster with an empty object name, whose value is null, and whose header {@link
 * #HEADER} holds the marker. Object names are never empty (the engine rejects such records), so a
 * marker's key cannot collide with an object's, and its null value lets compaction remove it.
 */
public final class SourceMarkers {
  /** The header that holds the Avro-encoded {@link SourceMarker}. */
  public static final String HEADER = "quotaflow-marker";

  private static final AvroSerde<SourceMarker> MARKERS = AvroSerde.forValues(SourceMarker.class);

  private SourceMarkers() {}

  /** A heartbeat of {@code cluster} at {@code at}, written by {@code source}. */
  public static SourceMarker heartbeat(
      final String cluster, final Instant at, final String source) {
    return new SourceMarker(MarkerKind.HEARTBEAT, cluster, at, 0L, -1L, source);
  }

  /** The first record of snapshot {@code epoch} of {@code cluster}. */
  public static SourceMarker snapshotStart(
      final String cluster, final long epoch, final Instant at, final String source) {
    return new SourceMarker(MarkerKind.SNAPSHOT_START, cluster, at, epoch, -1L, source);
  }

  /**
   * The last record of snapshot {@code epoch} of {@code cluster}, which re-sent {@code objects}.
   */
  public static SourceMarker snapshotEnd(
      final String cluster,
      final long epoch,
      final long objects,
      final Instant at,
      final String source) {
    return new SourceMarker(MarkerKind.SNAPSHOT_END, cluster, at, epoch, objects, source);
  }

  /**
   * Says the source no longer watches {@code cluster}'s objects of the topic it is written to, and
   * writes no further marker of them until it watches them again (issue 40.13).
   */
  public static SourceMarker retired(final String cluster, final Instant at, final String source) {
    return new SourceMarker(MarkerKind.RETIRED, cluster, at, 0L, -1L, source);
  }

  /**
   * Says {@code cluster} was forgotten ({@code quotaflow cluster forget}): every key of it in the
   * topic was tombstoned before it, and a reader drops what it keeps about the cluster.
   */
  public static SourceMarker forgotten(
      final String cluster, final Instant at, final String source) {
    return new SourceMarker(MarkerKind.FORGOTTEN, cluster, at, 0L, -1L, source);
  }

  /** The header that carries {@code marker}. */
  public static Header header(final SourceMarker marker) {
    return new RecordHeader(HEADER, MARKERS.serializer().serialize("", marker));
  }

  /**
   * The marker a record's headers carry, if any.
   *
   * @throws org.apache.kafka.common.errors.SerializationException when the header cannot be read
   */
  public static Optional<SourceMarker> read(final Headers headers) {
    if (headers == null) {
      return Optional.empty();
    }
    final Header header = headers.lastHeader(HEADER);
    return header == null
        ? Optional.empty()
        : Optional.of(MARKERS.deserializer().deserialize("", header.value()));
  }

  /** The key of {@code cluster}'s markers on pods.v1. */
  public static PodKey podKey(final String cluster) {
    return new PodKey(cluster, "", "");
  }

  /** The key of {@code cluster}'s markers on quotas.v1. */
  public static QuotaKey quotaKey(final String cluster) {
    return new QuotaKey(cluster, "");
  }

  /** The key of {@code cluster}'s markers on nodes.v1. */
  public static NodeKey nodeKey(final String cluster) {
    return new NodeKey(cluster, "");
  }

  /** The key of {@code cluster}'s markers on profiles.v1. */
  public static ProfileKey profileKey(final String cluster) {
    return new ProfileKey(cluster, "");
  }

  /** The key of {@code cluster}'s markers on podgroups.v1. */
  public static PodGroupKey podGroupKey(final String cluster) {
    return new PodGroupKey(cluster, "", "", "");
  }

  /**
   * The key of {@code cluster}'s markers on each DRA topic (deviceclasses.v1, resourceclaims.v1,
   * resourceclaimtemplates.v1, resourceslices.v1).
   */
  public static DraKey draKey(final String cluster) {
    return new DraKey(cluster, "", "");
  }
}

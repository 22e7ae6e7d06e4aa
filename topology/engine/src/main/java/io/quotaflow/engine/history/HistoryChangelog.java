package io.quotaflow.engine.history;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.internals.WindowKeySchema;

/**
 * A group-history store's changelog topic as a reader outside the engine sees it ({@code quotaflow
 * report --bootstrap-servers}): its name, and its records read back into windows. Each tier of the
 * history has its store and changelog, named by its step (section 23). The changelog holds what the
 * store holds (Kafka Streams restores the store from it), so a report read from it adds up the same
 * windows as the engine's.
 */
public final class HistoryChangelog {

  private static final AvroSerde<GroupHistoryWindow> WINDOWS =
      AvroSerde.forValues(GroupHistoryWindow.class);

  private HistoryChangelog() {}

  /** One record: a group's window, or a tombstone ({@code window} null). */
  public record Entry(GroupId group, Instant start, GroupHistoryWindow window) {
    public Entry {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(start, "start");
    }
  }

  /** The changelog of the history kept at {@code step} by the engine {@code applicationId}. */
  public static String topic(String applicationId, Duration step) {
    return applicationId + "-" + TopologyNames.historyStore(step) + "-changelog";
  }

  /** The step of {@code topic} when it is a history changelog of {@code applicationId}. */
  public static Optional<Duration> stepOf(String applicationId, String topic) {
    final Matcher name =
        Pattern.compile(Pattern.quote(applicationId) + "-group-history-(\\d{1,12})s-changelog")
            .matcher(topic);
    return name.matches()
        ? Optional.of(Duration.ofSeconds(Long.parseLong(name.group(1))))
        : Optional.empty();
  }

  /**
   * The entry a changelog record holds. The key is Kafka Streams' window-store key: the group's key
   * bytes, then the window's start and a sequence number ({@link WindowKeySchema}, the layout Kafka
   * Streams itself restores from).
   *
   * @throws org.apache.kafka.common.errors.SerializationException when the bytes are not a window
   *     of the history
   */
  public static Entry read(String topic, Duration step, byte[] key, byte[] value) {
    final Deserializer<GroupId> groups = GroupId.serde().deserializer();
    final Windowed<GroupId> window =
        WindowKeySchema.fromStoreKey(key, step.toMillis(), groups, new RecordHeaders(), topic);
    return new Entry(
        window.key(),
        Instant.ofEpochMilli(window.window().start()),
        value == null ? null : WINDOWS.deserializer().deserialize(topic, value));
  }
}

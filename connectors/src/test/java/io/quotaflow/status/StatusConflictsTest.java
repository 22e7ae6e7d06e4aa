package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.FieldsV1Builder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.quotaflow.fixtures.ManualClock;
import io.quotaflow.schemas.QuotaKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The overwrite counting and back-off arithmetic of the status writer, on a manual clock. */
class StatusConflictsTest {

  private static final String OURS = QuotaPatcher.FIELD_MANAGER;
  private static final String KOORDINATOR = "koord-scheduler";
  private static final StatusMode MODE = StatusMode.KOORDINATOR;
  private static final QuotaKey KEY = QuotaKey.newBuilder().setCluster("east").setName("a").build();
  private static final QuotaStatus STATUS = status("{\"cpu\":\"10\"}");
  private static final QuotaStatus THEIRS = status("{\"cpu\":\"7\"}");

  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final StatusConflicts conflicts =
      new StatusConflicts(ConflictSettings.defaults(), OURS, clock);
  private long version = 100;

  @Test
  void threeOverwritesWithinFiveMinutesPutTheObjectInConflictForOneMinute() {
    final Optional<StatusConflicts.Overwrite> first = fight();
    assertThat(first).get().extracting(StatusConflicts.Overwrite::conflict).isEqualTo(false);
    assertThat(first.get().managers()).containsExactly(KOORDINATOR);
    assertThat(first.get().fields())
        .contains("metadata.annotations." + QuotaStatus.RUNTIME_ANNOTATION);
    clock.advance(Duration.ofMinutes(2));
    assertThat(fight().get().recent()).isEqualTo(2);
    assertThat(conflicts.holding(KEY)).isFalse();
    clock.advance(Duration.ofMinutes(2));

    final StatusConflicts.Overwrite third = fight().get();

    assertThat(third.conflict()).isTrue();
    assertThat(third.entered()).isTrue();
    assertThat(third.holdFor()).isEqualTo(Duration.ofMinutes(1));
    assertThat(conflicts.holding(KEY)).isTrue();
    assertThat(conflicts.inConflict("east")).isEqualTo(1);
    assertThat(conflicts.inConflict("west")).isZero();
    clock.advance(Duration.ofSeconds(59));
    assertThat(conflicts.holding(KEY)).isTrue();
    assertThat(conflicts.due()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(conflicts.holding(KEY)).isFalse();
    assertThat(conflicts.due()).containsExactly(KEY);
  }

  @Test
  void overwritesOlderThanTheWindowDoNotCount() {
    fight();
    clock.advance(Duration.ofMinutes(3));
    fight();
    clock.advance(Duration.ofMinutes(3));

    final StatusConflicts.Overwrite third = fight().get();

    assertThat(third.recent()).isEqualTo(2);
    assertThat(third.conflict()).isFalse();
    assertThat(conflicts.holding(KEY)).isFalse();
  }

  @Test
  void eachRetryThatIsOverwrittenDoublesTheWaitUpToThirtyMinutes() {
    fight();
    fight();
    final List<Duration> waits = new ArrayList<>();
    waits.add(fight().get().holdFor());
    for (int retry = 0; retry < 7; retry++) {
      clock.advance(waits.get(waits.size() - 1));
      assertThat(conflicts.holding(KEY)).isFalse();
      final StatusConflicts.Overwrite again = fight().get();
      assertThat(again.entered()).isFalse();
      waits.add(again.holdFor());
    }

    assertThat(waits)
        .containsExactly(
            Duration.ofMinutes(1),
            Duration.ofMinutes(2),
            Duration.ofMinutes(4),
            Duration.ofMinutes(8),
            Duration.ofMinutes(16),
            Duration.ofMinutes(30),
            Duration.ofMinutes(30),
            Duration.ofMinutes(30));
    assertThat(ConflictSettings.defaults().backoff(Integer.MAX_VALUE))
        .isEqualTo(Duration.ofMinutes(30));
  }

  @Test
  void aRetryThatStandsForOneBackoffEndsTheConflict() {
    fight();
    fight();
    fight();
    clock.advance(Duration.ofMinutes(1));
    // The retry: the other writer has stopped.
    final GenericKubernetesResource written = object(STATUS, OURS);
    conflicts.wrote(KEY, written, STATUS, MODE);
    assertThat(conflicts.due()).isEmpty();
    clock.advance(Duration.ofSeconds(30));
    assertThat(conflicts.look(KEY, written)).isEmpty();
    assertThat(conflicts.shown(KEY, written, STATUS, MODE)).isFalse();
    clock.advance(Duration.ofSeconds(30));
    assertThat(conflicts.due()).containsExactly(KEY);

    assertThat(conflicts.shown(KEY, written, STATUS, MODE)).isTrue();

    assertThat(conflicts.inConflict("east")).isZero();
    assertThat(conflicts.due()).isEmpty();
    assertThat(fight().get().recent()).as("counted afresh").isEqualTo(1);
  }

  @Test
  void anObjectThatShowsTheStatusWhenItsWaitIsOverCountsAsARetry() {
    fight();
    fight();
    fight();
    clock.advance(Duration.ofMinutes(1));
    final GenericKubernetesResource agreed = object(STATUS, KOORDINATOR);

    assertThat(conflicts.shown(KEY, agreed, STATUS, MODE)).isFalse();
    clock.advance(Duration.ofMinutes(1));
    assertThat(conflicts.shown(KEY, agreed, STATUS, MODE)).isTrue();
  }

  @Test
  void theObjectAsSeenBeforeTheWritersOwnWriteIsNoOverwrite() {
    final GenericKubernetesResource before = object(THEIRS, KOORDINATOR);
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);

    assertThat(conflicts.look(KEY, before)).as("an informer not caught up yet").isEmpty();
  }

  @Test
  void aChangeOfOtherFieldsIsNoOverwrite() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);

    assertThat(conflicts.look(KEY, object(STATUS, OURS))).isEmpty();
  }

  @Test
  void aChangeByTheWritersOwnFieldManagerIsNoOtherWriters() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);

    assertThat(conflicts.look(KEY, object(THEIRS, OURS))).isEmpty();
  }

  @Test
  void anObjectCreatedAgainIsNoOverwrite() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);
    final GenericKubernetesResource recreated = object(THEIRS, KOORDINATOR);
    recreated.getMetadata().setUid("another-uid");

    assertThat(conflicts.look(KEY, recreated)).isEmpty();
  }

  @Test
  void withoutManagedFieldsAValueChangedSinceTheLastWriteIsAnotherWritersUnnamed() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);
    final GenericKubernetesResource changed = object(THEIRS, KOORDINATOR);
    changed.getMetadata().setManagedFields(null);

    final StatusConflicts.Overwrite overwrite = conflicts.look(KEY, changed).get();

    assertThat(overwrite.managers()).isEmpty();
    assertThat(ConflictAlerts.note(KEY, overwrite, ConflictSettings.defaults()))
        .contains("another writer (the API server names no field manager)");
  }

  @Test
  void eachWriteIsOverwrittenAtMostOnce() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);
    final GenericKubernetesResource changed = object(THEIRS, KOORDINATOR);

    assertThat(conflicts.look(KEY, changed)).isPresent();
    assertThat(conflicts.look(KEY, changed)).isEmpty();
  }

  @Test
  void resourceVersionsAreComparedAsNumbersWhenTheyAreNumbers() {
    assertThat(StatusConflicts.newer("10", "9")).isTrue();
    assertThat(StatusConflicts.newer("9", "10")).isFalse();
    assertThat(StatusConflicts.newer("10", "10")).isFalse();
    assertThat(StatusConflicts.newer("b", "a")).isTrue();
  }

  @Test
  void settingsThatDoNotFitAreRefusedNamingTheKey() {
    assertThatThrownBy(
            () ->
                new ConflictSettings(
                    0, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMinutes(30)))
        .hasMessageContaining("status.conflict.overwrites");
    assertThatThrownBy(
            () ->
                new ConflictSettings(
                    3, Duration.ofMinutes(5), Duration.ofMinutes(2), Duration.ofMinutes(1)))
        .hasMessageContaining("status.conflict.backoff.max");
    assertThatThrownBy(
            () ->
                new ConflictSettings(
                    3, Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(1)))
        .hasMessageContaining("status.conflict.window");
  }

  /** The writer writes, and the other writer changes the runtime back: one overwrite looked at. */
  private Optional<StatusConflicts.Overwrite> fight() {
    conflicts.wrote(KEY, object(STATUS, OURS), STATUS, MODE);
    return conflicts.look(KEY, object(THEIRS, KOORDINATOR));
  }

  /**
   * The object at the next resource version, showing {@code shown}, whose runtime {@code owner}
   * wrote.
   */
  private GenericKubernetesResource object(final QuotaStatus shown, final String owner) {
    final GenericKubernetesResource quota = quota("ns", "a").build();
    quota.getMetadata().setUid("uid-a");
    quota.getMetadata().setResourceVersion(Long.toString(++version));
    quota.getMetadata().setAnnotations(new TreeMap<>(shown.annotations(MODE)));
    quota.getAdditionalProperties().put("status", Map.of("used", shown.used()));
    quota.getMetadata().setManagedFields(List.of(entry(owner)));
    return quota;
  }

  private static ManagedFieldsEntry entry(final String manager) {
    return new ManagedFieldsEntryBuilder()
        .withManager(manager)
        .withOperation("Update")
        .withFieldsType("FieldsV1")
        .withFieldsV1(
            new FieldsV1Builder()
                .addToAdditionalProperties(
                    "f:metadata",
                    Map.of(
                        "f:annotations", Map.of("f:" + QuotaStatus.RUNTIME_ANNOTATION, Map.of())))
                .build())
        .build();
  }

  private static QuotaStatus status(final String runtime) {
    return new QuotaStatus(
        runtime, "{}", "{}", "{}", new TreeMap<>(Map.of("cpu", "1")), Optional.empty());
  }
}

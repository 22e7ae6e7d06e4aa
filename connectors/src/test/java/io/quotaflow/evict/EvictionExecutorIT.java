package io.quotaflow.evict;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.cluster.InputGaps;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.Evictions;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.RecordingSleeper;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class EvictionExecutorIT {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration MAX_AGE = Duration.ofMinutes(10);
  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("evict");

  private final List<EvictionExecutor> executors = new ArrayList<>();
  private RecordingSleeper sleeper;

  @BeforeEach
  void freshSleeper() {
    sleeper = new RecordingSleeper();
  }

  @AfterEach
  void stopExecutors() {
    executors.forEach(EvictionExecutor::close);
  }

  @Test
  void aCommandForARunningPodEvictsItThroughPolicyV1WithItsUidAsPrecondition() {
    final Pod victim = createPod("batch-1");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-1").accepts();
    start(settings());

    final EvictionCommand command = send(key("batch-1"), uidOf(victim));

    final EvictionResult result = awaitResult(command);
    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
    assertThat(result.getAttempts()).isEqualTo(1);
    assertThat(result.getPodUid()).isEqualTo(uidOf(victim));
    assertThat(result.getCompletedAt()).isEqualTo(NOW);
    assertThat(eviction.requests())
        .singleElement()
        .asString()
        .contains("\"apiVersion\":\"policy/v1\"")
        .contains("\"kind\":\"Eviction\"")
        .contains("\"uid\":\"" + uidOf(victim) + "\"");
    await().atMost(ConnectorRig.WAIT).until(() -> podNamed("batch-1") == null);
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        rig.registry()
                            .get("quotaflow.evictions.results")
                            .tags(
                                "cluster",
                                "east",
                                "outcome",
                                "EVICTED",
                                "reason",
                                "reclaimed-after-delay")
                            .counter()
                            .count())
                    .as("counted with the command's reason code")
                    .isEqualTo(1.0));
  }

  @Test
  void aPodWhoseUidChangedIsNotEvicted() {
    createPod("web-1");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "web-1").accepts();
    start(settings());

    final EvictionCommand command = send(key("web-1"), "uid-of-an-earlier-pod");

    assertThat(awaitResult(command).getOutcome()).isEqualTo(EvictionOutcome.UID_CHANGED);
    assertThat(eviction.requests()).isEmpty();
    assertThat(podNamed("web-1")).isNotNull();
  }

  @Test
  void aCommandForAPodOfASystemPriorityClassIsRefusedAsProtected() {
    final Pod pod = pod(rig.namespace(), "dns-1").running("node-a").build();
    pod.getSpec().setPriorityClassName("system-cluster-critical");
    final Pod critical = rig.mock().client().resource(pod).create();
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "dns-1").accepts();
    start(settings());

    final EvictionResult result = awaitResult(send(key("dns-1"), uidOf(critical)));

    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.PROTECTED);
    assertThat(result.getMessage()).contains("priority class system-cluster-critical");
    assertThat(eviction.requests()).isEmpty();
    assertThat(podNamed("dns-1")).isNotNull();
  }

  @Test
  void aCommandForAPodInAProtectedNamespaceIsRefusedAsProtected() {
    final Pod victim = createPod("operator-1");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "operator-1").accepts();
    start(settings().withProtectedPods(new ProtectedPods(Set.of(rig.namespace()), Set.of())));

    final EvictionResult result = awaitResult(send(key("operator-1"), uidOf(victim)));

    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.PROTECTED);
    assertThat(result.getMessage()).contains("namespace " + rig.namespace() + " is protected");
    assertThat(eviction.requests()).isEmpty();
    assertThat(podNamed("operator-1")).isNotNull();
  }

  @Test
  void aPodThatIsGoneIsReportedGone() {
    start(settings());

    final EvictionCommand command = send(key("never-was"), "some-uid");

    final EvictionResult result = awaitResult(command);
    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.GONE);
    assertThat(result.getAttempts()).isZero();
  }

  /**
   * Issue 40, point 9: a disruption budget's refusal is reported at once, to be commanded again by
   * the engine after its backoff, not waited on with more requests inside the executor (which held
   * up every later command for the backoff's whole length).
   */
  @Test
  void aBudgetRefusalIsReportedAtOnceAsBlockedByBudgetWithoutWaiting() {
    final Pod victim = createPod("db-0");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "db-0").refuses(3);
    start(settings());

    final EvictionCommand command = send(key("db-0"), uidOf(victim));

    final EvictionResult result = awaitResult(command);
    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.BLOCKED_BY_BUDGET);
    assertThat(result.getAttempts()).isEqualTo(1);
    assertThat(result.getMessage()).contains("disruption budget");
    assertThat(eviction.requests()).hasSize(1);
    assertThat(sleeper.waits()).as("nothing waited for").isEmpty();
    assertThat(podNamed("db-0")).isNotNull();
    // Issue 27: the result's reason is the budget's, not the command's.
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(rig.registry().find("quotaflow.evictions.results").counters())
                    .singleElement()
                    .satisfies(
                        counter -> {
                          assertThat(counter.getId().getTag("outcome"))
                              .isEqualTo("BLOCKED_BY_BUDGET");
                          assertThat(counter.getId().getTag("reason"))
                              .isEqualTo("blocked-by-budget");
                          assertThat(counter.count()).isEqualTo(1.0);
                        }));
  }

  /**
   * Issue 40, point 9: a 429 with a Retry-After and no budget is the API server throttling its
   * clients, not a refusal: asked again after the Retry-After, and UNREACHABLE (not one of the
   * pod's attempts) if it never lets the request through.
   */
  @Test
  void throttlingIsWaitedForAndEndsUnreachableNotBlockedByBudget() {
    final Pod victim = createPod("web-7");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "web-7").throttles(3, 4);
    start(settings());

    final EvictionResult result = awaitResult(send(key("web-7"), uidOf(victim)));

    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.UNREACHABLE);
    assertThat(result.getMessage()).contains("429").contains("Too many requests");
    assertThat(eviction.requests()).hasSize(3);
    assertThat(sleeper.waits())
        .as("the server's Retry-After, not the backoff")
        .containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(4));
  }

  @Test
  void aThrottledEvictionGoesThroughOnceTheApiServerLetsIt() {
    final Pod victim = createPod("web-8");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "web-8").throttles(1, 2).accepts();
    start(settings());

    final EvictionResult result = awaitResult(send(key("web-8"), uidOf(victim)));

    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
    assertThat(result.getAttempts()).isEqualTo(2);
    assertThat(eviction.requests()).hasSize(2);
    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(2));
  }

  /**
   * Issue 40, point 9: the 500 the Eviction API answers for a pod that two disruption budgets
   * select is no outage: it is FAILED at once (an attempt of the pod's), not retried as UNREACHABLE
   * for ever.
   */
  @Test
  void aPodUnderTwoBudgetsFailsAtOnceInsteadOfBeingRetriedAsUnreachable() {
    final Pod victim = createPod("db-2");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "db-2").underTwoBudgets(3);
    start(settings());

    final EvictionResult result = awaitResult(send(key("db-2"), uidOf(victim)));

    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.FAILED);
    assertThat(result.getAttempts()).isEqualTo(1);
    assertThat(result.getMessage()).contains("more than one PodDisruptionBudget");
    assertThat(eviction.requests()).hasSize(1);
    assertThat(sleeper.waits()).isEmpty();
  }

  /**
   * Issue 40, point 9: each cluster is served on its own worker. With 20 pods of one cluster whose
   * budgets refuse (and real waiting between requests), another cluster's command is carried out
   * within a second; before, it waited behind every blocked pod's backoff.
   */
  @Test
  void anotherClustersCommandIsCarriedOutWithinASecondBehindTwentyBlockedPods() throws Exception {
    try (MockCluster west = MockCluster.start("west")) {
      final List<EvictionEndpoint> blocked = new ArrayList<>();
      final List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        pods.add(createPod("blocked-" + i));
        blocked.add(EvictionEndpoint.of(rig.mock(), rig.namespace(), "blocked-" + i).refuses(10));
      }
      final Pod westPod =
          west.client().resource(pod(rig.namespace(), "west-1").running("node-w").build()).create();
      final EvictionEndpoint westEviction =
          EvictionEndpoint.of(west, rig.namespace(), "west-1").accepts();
      startOn(List.of(rig.mock().cluster(), west.cluster()), settings(), Sleeper.SYSTEM);
      for (int i = 0; i < 20; i++) {
        send(key("blocked-" + i), uidOf(pods.get(i)), Instant.now().minusSeconds(1));
      }
      await().atMost(ConnectorRig.WAIT).until(() -> !blocked.get(0).requests().isEmpty());

      final long sent = System.nanoTime();
      final PodKey westKey =
          PodKey.newBuilder()
              .setCluster("west")
              .setNamespace(rig.namespace())
              .setName("west-1")
              .build();
      send(westKey, uidOf(westPod), Instant.now().minusSeconds(1));
      await()
          .atMost(Duration.ofSeconds(1))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> !westEviction.requests().isEmpty());
      final Duration took = Duration.ofNanos(System.nanoTime() - sent);

      System.out.printf(
          "west's eviction request %d ms after its command was sent%n", took.toMillis());
      assertThat(westEviction.requests()).hasSize(1);
    }
  }

  /** Issue 26: an API server that cannot answer is not the pod's refusal: UNREACHABLE. */
  @Test
  void anApiServerUnavailableAtEveryAttemptEndsUnreachable() {
    final Pod victim = createPod("web-9");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "web-9").unavailable(3);
    start(settings());

    final EvictionCommand command = send(key("web-9"), uidOf(victim));

    final EvictionResult result = awaitResult(command);
    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.UNREACHABLE);
    assertThat(result.getMessage()).contains("503");
    assertThat(eviction.requests()).hasSize(3);
    assertThat(podNamed("web-9")).isNotNull();
  }

  @Test
  void aDryRunDecidesAndReportsWithoutEvicting() {
    final Pod victim = createPod("batch-3");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-3").accepts();
    start(settings().withDryRun(true));

    final EvictionCommand command = send(key("batch-3"), uidOf(victim));

    assertThat(awaitResult(command).getOutcome()).isEqualTo(EvictionOutcome.DRY_RUN);
    assertThat(eviction.requests()).isEmpty();
    assertThat(podNamed("batch-3")).isNotNull();
  }

  @Test
  void aCommandOlderThanTheMaxAgeExpiresAndItsPodIsNotEvicted() {
    final Pod victim = createPod("batch-4");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-4").accepts();
    start(settings());

    // Decided three hours ago, say before an outage of the executor.
    final EvictionCommand command =
        send(key("batch-4"), uidOf(victim), NOW.minus(Duration.ofHours(3)));

    final EvictionResult result = awaitResult(command);
    assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.EXPIRED);
    assertThat(result.getAttempts()).isZero();
    assertThat(result.getCompletedAt()).isEqualTo(NOW);
    assertThat(result.getMessage()).contains("3h").contains("10m");
    assertThat(eviction.requests()).isEmpty();
    assertThat(podNamed("batch-4")).isNotNull();
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        rig.registry()
                            .get("quotaflow.evictions.results")
                            .tags("cluster", "east", "outcome", "EXPIRED")
                            .counter()
                            .count())
                    .isEqualTo(1.0));
  }

  /**
   * Issue 26: a command the source calls stale (decided before the cluster's last relist) is
   * refused STALE, attempts 0, and its pod is left alone; a later decision is carried out.
   */
  @Test
  void aCommandDecidedBeforeItsClustersLastRelistIsRefusedStale() {
    final Pod before = createPod("batch-10");
    final Pod after = createPod("batch-11");
    final EvictionEndpoint refused =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-10").accepts();
    final EvictionEndpoint evicted =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-11").accepts();
    final Instant relist = NOW.minusSeconds(30);
    start(
        settings(),
        (cluster, decidedAt) ->
            cluster.equals("east") && decidedAt.isBefore(relist)
                ? Optional.of("decided at " + decidedAt + ", before the relist at " + relist)
                : Optional.empty());

    final EvictionCommand stale = send(key("batch-10"), uidOf(before), NOW.minusSeconds(60));
    final EvictionCommand fresh = send(key("batch-11"), uidOf(after), NOW.minusSeconds(10));

    final EvictionResult staleResult = awaitResult(stale);
    assertThat(staleResult.getOutcome()).isEqualTo(EvictionOutcome.STALE);
    assertThat(staleResult.getAttempts()).isZero();
    assertThat(staleResult.getMessage()).contains("before the relist at " + relist);
    assertThat(awaitResult(fresh).getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
    assertThat(refused.requests()).isEmpty();
    assertThat(podNamed("batch-10")).isNotNull();
    assertThat(evicted.requests()).hasSize(1);
  }

  @Test
  void aCommandJustInsideTheMaxAgeIsCarriedOut() {
    final Pod victim = createPod("batch-5");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-5").accepts();
    start(settings());

    final EvictionCommand command =
        send(key("batch-5"), uidOf(victim), NOW.minus(MAX_AGE).plusSeconds(1));

    assertThat(awaitResult(command).getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
    assertThat(eviction.requests()).hasSize(1);
  }

  @Test
  void aCommandIssuedInTheFutureIsCarriedOut() {
    final Pod victim = createPod("batch-6");
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "batch-6").accepts();
    start(settings());

    // The engine's clock runs ahead of the executor's.
    final EvictionCommand command =
        send(key("batch-6"), uidOf(victim), NOW.plus(Duration.ofHours(1)));

    assertThat(awaitResult(command).getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
    assertThat(eviction.requests()).hasSize(1);
  }

  @Test
  void aCommandThatAlreadyHasAResultIsNotCarriedOutAgain() {
    start(settings());
    final EvictionCommand command = send(key("gone-1"), "uid-1");
    awaitResult(command);
    stopExecutors();
    executors.clear();

    // A new consumer group reads every command again, as after lost offsets; the same command
    // also arrives a second time.
    final EvictionSettings other = settings().withGroupId("evict-" + UUID.randomUUID());
    start(other);
    send(key("gone-1"), "uid-1");

    await()
        .atMost(ConnectorRig.WAIT)
        .until(
            () ->
                rig.registry().find("quotaflow.evictions.duplicates").counters().stream()
                        .mapToDouble(counter -> counter.count())
                        .sum()
                    >= 2);
    try (TopicReader<PodKey, EvictionResult> results = rig.reader(rig.topics().evictionResults())) {
      assertThat(results.read())
          .filteredOn(entry -> entry.value().orElseThrow().getCommandId().equals(command.getId()))
          .hasSize(1);
    }
  }

  @Test
  void commandsForAClusterItDoesNotServeArePassedOver() {
    start(settings());
    final PodKey elsewhere =
        PodKey.newBuilder().setCluster("west").setNamespace(rig.namespace()).setName("x").build();
    final EvictionCommand foreign = send(elsewhere, "uid-x");
    final EvictionCommand ours = send(key("marker"), "uid-m");

    awaitResult(ours);
    try (TopicReader<PodKey, EvictionResult> results = rig.reader(rig.topics().evictionResults())) {
      assertThat(results.read())
          .extracting(entry -> entry.value().orElseThrow().getCommandId())
          .doesNotContain(foreign.getId());
    }
  }

  private EvictionSettings settings() {
    return new EvictionSettings(
        false,
        3,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        100,
        100,
        "evict-" + UUID.randomUUID(),
        MAX_AGE);
  }

  private void start(final EvictionSettings settings) {
    start(settings, InputGaps.NONE);
  }

  private void start(final EvictionSettings settings, final InputGaps gaps) {
    final EvictionExecutor executor =
        new EvictionExecutor(
            List.of(rig.mock().cluster()),
            rig.topics(),
            rig.kafka(),
            settings,
            Clock.fixed(NOW, ZoneOffset.UTC),
            sleeper,
            rig.registry());
    executors.add(executor);
    executor.checkInputsWith(gaps);
    executor.start();
  }

  /** An executor for {@code clusters} on the system clock, waiting with {@code realSleeper}. */
  private void startOn(
      final List<KubeCluster> clusters,
      final EvictionSettings settings,
      final Sleeper realSleeper) {
    final EvictionExecutor executor =
        new EvictionExecutor(
            clusters,
            rig.topics(),
            rig.kafka(),
            settings,
            Clock.systemUTC(),
            realSleeper,
            rig.registry());
    executors.add(executor);
    executor.start();
  }

  private EvictionCommand send(final PodKey key, final String uid) {
    return send(key, uid, NOW.minusSeconds(1));
  }

  private EvictionCommand send(final PodKey key, final String uid, final Instant issuedAt) {
    final EvictionCommand command =
        EvictionCommand.newBuilder()
            .setId(key.getCluster() + "/" + key.getNamespace() + "/" + key.getName() + "/" + uid)
            .setPodUid(uid)
            .setGroup("team-a")
            .setReason("team-a uses more cpu than its runtime")
            .setReasonCode("reclaimed-after-delay")
            .setIssuedAt(issuedAt)
            .build();
    rig.send(rig.topics().evictions(), key, command);
    return command;
  }

  private EvictionResult awaitResult(final EvictionCommand command) {
    return Evictions.awaitResult(rig.broker(), rig.topics(), command, ConnectorRig.WAIT);
  }

  private Pod createPod(final String name) {
    return rig.mock()
        .client()
        .resource(pod(rig.namespace(), name).running("node-a").build())
        .create();
  }

  private Pod podNamed(final String name) {
    return rig.mock().client().pods().inNamespace(rig.namespace()).withName(name).get();
  }

  private PodKey key(final String name) {
    return Keys.pod(rig.namespace(), name);
  }

  private static String uidOf(final Pod pod) {
    return pod.getMetadata().getUid();
  }
}

package io.quotaflow.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.simulate.BadInputException;
import io.quotaflow.simulate.Manifest;
import io.quotaflow.simulate.ManifestReader;
import io.quotaflow.tree.GroupStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * Plays a {@link Scenario} against the demo cluster of a running {@link LocalRun}: each step says
 * what happens, changes the cluster as a user or the scheduler would, and waits (at most the step's
 * bound) until the engine shows what the step expects. The webhook is called as the API server
 * would call it; a pod it admits is then created.
 */
final class ScenarioPlayer {

  private static final Duration POLL = Duration.ofMillis(200);

  /** Called after each step has reached its expected state, e.g. to check more than it says. */
  @FunctionalInterface
  interface StepListener {
    void reached(int number, Scenario.Step step, StepOutcome outcome);
  }

  /**
   * What a step saw once it reached its expected state.
   *
   * @param runtime the runtimes it expected, as the engine computed them (group to resource to
   *     quantity)
   * @param evicted the pods evicted so far
   * @param admission the webhook's answer to the step's pod and its message, if the step asked
   * @param reservations the reservations it expected, as the engine holds them (group to status; a
   *     group expected without one is absent)
   * @param refused the nodes the scheduler filter refused the step's pod, with the reasons
   * @param placed the node the step's pod was placed on, if any passed
   */
  record StepOutcome(
      Map<String, Map<String, String>> runtime,
      List<PodRef> evicted,
      Optional<Scenario.AdmissionAnswer> admission,
      Optional<String> admissionMessage,
      Map<String, ReservationStatus> reservations,
      Map<String, String> refused,
      Optional<String> placed) {}

  private final LocalRun run;
  private final DemoCluster demo;
  private final PrintWriter out;
  private final StepListener listener;
  private final PluginDoors plugin;

  ScenarioPlayer(final LocalRun run, final PrintWriter out, final StepListener listener) {
    this.run = run;
    this.demo =
        run.demo()
            .orElseThrow(() -> new IllegalStateException("scenarios play on the demo cluster"));
    this.out = out;
    this.listener = listener;
    this.plugin = new PluginDoors(run.adminUrl());
  }

  /**
   * Plays every step.
   *
   * @throws ScenarioFailedException when a step does not reach its expected state in time
   */
  List<StepOutcome> play(final Scenario scenario) {
    say("Scenario %s: %s", scenario.name(), scenario.summary());
    final List<StepOutcome> outcomes = new ArrayList<>();
    int number = 0;
    for (final Scenario.Step step : scenario.steps()) {
      number++;
      say("%nStep %d/%d: %s", number, scenario.steps().size(), step.say());
      final StepOutcome outcome = play(step);
      listener.reached(number, step, outcome);
      outcomes.add(outcome);
    }
    say("%nScenario %s finished: every step reached the state it expected.", scenario.name());
    return List.copyOf(outcomes);
  }

  private StepOutcome play(final Scenario.Step step) {
    for (final Path file : step.create()) {
      for (final HasMetadata object : read(file)) {
        demo.create(object);
        say("  created %s %s", object.getKind(), describe(object));
      }
    }
    for (final Path file : step.apply()) {
      for (final HasMetadata object : read(file)) {
        demo.apply(object);
        say("  applied %s %s", object.getKind(), describe(object));
      }
    }
    for (final PodRef ref : step.bind()) {
      bind(ref, step.node().orElseThrow());
      say("  the scheduler placed %s on %s", ref, step.node().orElseThrow());
    }
    Optional<Scenario.AdmissionAnswer> answer = Optional.empty();
    Optional<String> message = Optional.empty();
    if (step.admit().isPresent()) {
      final Pod pod = onlyPod(step.admit().get());
      final Optional<AdmissionResponse> response = plugin.admit(pod);
      if (response.isEmpty()) {
        say("  the admission plugin is off: %s is created unchecked", describe(pod));
        demo.create(pod);
      } else if (Boolean.TRUE.equals(response.get().getAllowed())) {
        answer = Optional.of(Scenario.AdmissionAnswer.ALLOWED);
        say("  the webhook admits %s; it is created", describe(pod));
        demo.create(pod);
      } else {
        answer = Optional.of(Scenario.AdmissionAnswer.DENIED);
        message =
            Optional.ofNullable(response.get().getStatus()).map(status -> status.getMessage());
        say("  the webhook denies %s: %s", describe(pod), message.orElse("(no message)"));
      }
      final Optional<Scenario.AdmissionAnswer> seen = answer;
      step.expect()
          .admission()
          .filter(expected -> seen.isPresent() && !seen.get().equals(expected))
          .ifPresent(
              expected -> {
                throw new ScenarioFailedException(
                    "expected the webhook to answer " + expected + ", it answered " + seen.get());
              });
    }
    final Map<String, ReservationStatus> reservations =
        await(
            step,
            "reservations " + step.expect().reservation(),
            () -> reservationsIfExpected(step));
    reservations.forEach(
        (group, status) ->
            say(
                "  %s's reservation (%s) locks %s%s",
                group,
                status.policy().label(),
                status.nodes().isEmpty() ? "no node" : String.join(", ", status.nodes()),
                status.satisfied() ? "" : ": " + status.reason().orElse("not satisfied")));
    step.expect()
        .reservation()
        .forEach(
            (group, expected) -> {
              if (expected.absent()) {
                say("  %s reserves no node", group);
              }
            });
    Map<String, String> refused = Map.of();
    Optional<String> placed = Optional.empty();
    if (step.schedule().isPresent()) {
      final Pod pod = onlyPod(step.schedule().get());
      final PluginDoors.Filtered filtered =
          plugin.filter(
              pod,
              demo.client().nodes().list().getItems().stream()
                  .map(node -> node.getMetadata().getName())
                  .sorted()
                  .toList());
      refused = filtered.refused();
      refused.forEach((node, reason) -> say("  the scheduler filter refuses %s: %s", node, reason));
      placed = filtered.placed();
      if (placed.isPresent()) {
        demo.create(pod);
        bind(
            new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName()),
            placed.get());
        say("  the scheduler places %s on %s", describe(pod), placed.get());
      } else {
        say("  no node takes %s", describe(pod));
      }
      checkScheduled(step, refused, placed);
    }
    final Map<String, Map<String, String>> runtime =
        await(step, "runtimes " + step.expect().runtime(), () -> runtimesIfExpected(step));
    runtime.forEach(
        (group, resources) ->
            say(
                "  %s's runtime is now %s",
                group,
                String.join(
                    ", ",
                    new TreeMap<>(resources)
                        .entrySet().stream()
                            .map(entry -> entry.getKey() + " " + entry.getValue())
                            .toList())));
    final Map<String, Map<String, String>> remembered =
        await(
            step,
            "remembered borrowing of at least " + step.expect().pastBorrowed(),
            () -> pastBorrowedIfExpected(step));
    remembered.forEach(
        (group, resources) ->
            say(
                "  quotaflow remembers %s's borrowing as %s on average (fair share with memory)",
                group,
                String.join(
                    ", ",
                    new TreeMap<>(resources)
                        .entrySet().stream()
                            .map(entry -> entry.getKey() + " " + entry.getValue())
                            .toList())));
    final List<PodRef> evicted =
        await(step, "evictions of " + step.expect().evicted(), () -> evictedIfExpected(step));
    for (final PodRef ref : step.expect().evicted()) {
      say("  quotaflow evicted %s through the eviction API, and it is gone", ref);
    }
    return new StepOutcome(runtime, evicted, answer, message, reservations, refused, placed);
  }

  /** The expected groups' reservations when they all match, else empty. */
  private Optional<Map<String, ReservationStatus>> reservationsIfExpected(
      final Scenario.Step step) {
    final Map<String, ReservationStatus> held;
    try {
      held = RuntimeQueries.of(engine().streams()).reservations(DemoCluster.NAME);
    } catch (final InvalidStateStoreException e) {
      return Optional.empty();
    }
    final Map<String, ReservationStatus> seen = new TreeMap<>();
    for (final Map.Entry<String, Scenario.ReservationExpect> expected :
        step.expect().reservation().entrySet()) {
      final ReservationStatus status = held.get(expected.getKey());
      if (expected.getValue().absent()) {
        if (status != null) {
          return Optional.empty();
        }
        continue;
      }
      if (status == null
          || status.satisfied() != expected.getValue().satisfied()
          || !status.nodes().equals(expected.getValue().nodes())) {
        return Optional.empty();
      }
      seen.put(expected.getKey(), status);
    }
    return Optional.of(seen);
  }

  private void checkScheduled(
      final Scenario.Step step, final Map<String, String> refused, final Optional<String> placed) {
    step.expect()
        .scheduled()
        .ifPresent(
            expected -> {
              if (!expected.refused().equals(List.copyOf(refused.keySet()))
                  || !expected.node().equals(placed)) {
                throw new ScenarioFailedException(
                    "expected the scheduler filter to refuse "
                        + expected.refused()
                        + " and the pod to go to "
                        + expected.node().orElse("no node")
                        + "; it refused "
                        + refused.keySet()
                        + " and the pod went to "
                        + placed.orElse("no node"));
              }
            });
  }

  /** The expected groups' runtimes when they all match, else empty. */
  private Optional<Map<String, Map<String, String>>> runtimesIfExpected(final Scenario.Step step) {
    final RuntimeQueries queries;
    try {
      queries = RuntimeQueries.of(engine().streams());
    } catch (final InvalidStateStoreException e) {
      return Optional.empty();
    }
    final Map<String, Map<String, String>> seen = new TreeMap<>();
    for (final Map.Entry<String, Map<String, String>> group : step.expect().runtime().entrySet()) {
      final Optional<GroupStatus> status = queries.group(DemoCluster.NAME, group.getKey());
      if (status.isEmpty()) {
        return Optional.empty();
      }
      final Map<String, String> resources = new TreeMap<>();
      for (final Map.Entry<String, String> expected : group.getValue().entrySet()) {
        final String resource = expected.getKey();
        final long actual = status.get().runtime().get(resource);
        if (actual != Quantities.parse(resource, expected.getValue())) {
          return Optional.empty();
        }
        resources.put(resource, Quantities.format(resource, actual));
      }
      seen.put(group.getKey(), Map.copyOf(resources));
    }
    return Optional.of(Map.copyOf(seen));
  }

  /**
   * The expected groups' decayed average borrowed when each has reached at least what the step
   * expects (docs/semantics.md section 24), else empty.
   */
  private Optional<Map<String, Map<String, String>>> pastBorrowedIfExpected(
      final Scenario.Step step) {
    final RuntimeQueries queries;
    try {
      queries = RuntimeQueries.of(engine().streams());
    } catch (final InvalidStateStoreException e) {
      return Optional.empty();
    }
    final Map<String, Map<String, String>> seen = new TreeMap<>();
    for (final Map.Entry<String, Map<String, String>> group :
        step.expect().pastBorrowed().entrySet()) {
      final Optional<GroupStatus> status = queries.group(DemoCluster.NAME, group.getKey());
      if (status.isEmpty()) {
        return Optional.empty();
      }
      final Map<String, String> resources = new TreeMap<>();
      for (final Map.Entry<String, String> expected : group.getValue().entrySet()) {
        final String resource = expected.getKey();
        final long actual = status.get().pastBorrowed().get(resource);
        if (actual < Quantities.parse(resource, expected.getValue())) {
          return Optional.empty();
        }
        resources.put(resource, Quantities.format(resource, actual));
      }
      seen.put(group.getKey(), Map.copyOf(resources));
    }
    return Optional.of(Map.copyOf(seen));
  }

  /** The pods evicted so far when every expected one is evicted and gone, else empty. */
  private Optional<List<PodRef>> evictedIfExpected(final Scenario.Step step) {
    final List<PodRef> evicted = demo.evicted();
    for (final PodRef ref : step.expect().evicted()) {
      if (!evicted.contains(ref)
          || demo.client().pods().inNamespace(ref.namespace()).withName(ref.name()).get() != null) {
        return Optional.empty();
      }
    }
    return Optional.of(evicted);
  }

  private <T> T await(
      final Scenario.Step step, final String what, final Supplier<Optional<T>> check) {
    final long deadline = System.nanoTime() + step.within().toNanos();
    while (true) {
      final Optional<T> value = check.get();
      if (value.isPresent()) {
        return value.get();
      }
      if (System.nanoTime() > deadline) {
        throw new ScenarioFailedException(
            "step '" + step.say() + "' did not reach " + what + " within " + step.within());
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ScenarioFailedException("interrupted while waiting for " + what);
      }
    }
  }

  private Engine engine() {
    return run.engine();
  }

  /** Places a pod as the scheduler and the kubelet would; each write on a fresh read. */
  private void bind(final PodRef ref, final String node) {
    final KubernetesClient client = demo.client();
    ConflictRetry.write(ref.toString(), () -> client.resource(placed(ref, node)).update());
    ConflictRetry.write(ref.toString(), () -> client.resource(placed(ref, node)).updateStatus());
  }

  private Pod placed(final PodRef ref, final String node) {
    final Pod pod = demo.client().pods().inNamespace(ref.namespace()).withName(ref.name()).get();
    if (pod == null) {
      throw new ScenarioFailedException("cannot place " + ref + ": there is no such pod");
    }
    return new PodBuilder(pod)
        .editSpec()
        .withNodeName(node)
        .endSpec()
        .editOrNewStatus()
        .withPhase("Running")
        .endStatus()
        .build();
  }

  private static Pod onlyPod(final Path file) {
    final List<HasMetadata> objects = read(file);
    if (objects.size() != 1 || !(objects.get(0) instanceof Pod pod)) {
      throw new ScenarioFailedException(file + " must hold exactly one Pod to ask admission for");
    }
    return pod;
  }

  private static List<HasMetadata> read(final Path file) {
    try {
      return new ManifestReader(warning -> {})
          .read(List.of(file)).stream().map(Manifest::object).toList();
    } catch (final BadInputException e) {
      throw new ScenarioFailedException("cannot read " + file + ": " + e.getMessage());
    }
  }

  private static String describe(final HasMetadata object) {
    final String namespace = object.getMetadata().getNamespace();
    return (namespace == null ? "" : namespace + "/") + object.getMetadata().getName();
  }

  private void say(final String format, final Object... args) {
    out.printf(format + "%n", args);
    out.flush();
  }
}

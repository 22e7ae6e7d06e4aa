package io.quotaflow.local;

import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The set-up the ITs that boot {@code quotaflow local} in this JVM share: before each test, local
 * started on the demo cluster (with a scenario of the checkout, or the examples alone), its printed
 * output kept; after each test, everything stopped. A scenario's steps are played with a check
 * after each that waits for the engine to converge; the steps checked are recorded.
 *
 * <pre>{@code
 * @RegisterExtension final LocalRunExtension local = LocalRunExtension.scenario("node-pools");
 * }</pre>
 */
final class LocalRunExtension implements BeforeEachCallback, AfterEachCallback {

  /** How long the engine may take to reflect a step once the player saw what it expected. */
  private static final Duration CONVERGED = Duration.ofSeconds(15);

  private final Optional<Scenario> scenario;
  private final StringWriter printed = new StringWriter();
  private final PrintWriter out = new PrintWriter(printed, true);
  private final List<Integer> checkedSteps = new ArrayList<>();
  private LocalRun run;

  private LocalRunExtension(final Optional<Scenario> scenario) {
    this.scenario = scenario;
  }

  /** {@code quotaflow local --scenario name}: broker, demo cluster with the scenario's objects. */
  static LocalRunExtension scenario(final String name) {
    return new LocalRunExtension(
        Optional.of(new ScenarioCatalogue(PlayedScenarios.LOCAL.resolve("scenarios")).named(name)));
  }

  /** {@code quotaflow local}: broker, demo cluster with the examples, engine. */
  static LocalRunExtension demo() {
    return new LocalRunExtension(Optional.empty());
  }

  @Override
  public void beforeEach(final ExtensionContext context) {
    final LocalSettings demo = LocalSettings.demo(PlayedScenarios.LOCAL.resolve("examples"), 0);
    run = LocalRun.start(scenario.map(demo::withScenario).orElse(demo), out);
  }

  @Override
  public void afterEach(final ExtensionContext context) {
    stop();
  }

  /** The running local. */
  LocalRun run() {
    return run;
  }

  /** What local printed so far. */
  String printed() {
    return printed.toString();
  }

  /**
   * Plays the scenario; after every step, waits until {@code check} (given the step's number, from
   * 1) passes, then records the number in {@link #checkedSteps()}.
   */
  List<ScenarioPlayer.StepOutcome> play(final IntConsumer check) {
    return new ScenarioPlayer(
            run,
            out,
            (number, step, outcome) -> {
              await().atMost(CONVERGED).untilAsserted(() -> check.accept(number));
              checkedSteps.add(number);
            })
        .play(scenario.orElseThrow(() -> new IllegalStateException("no scenario to play")));
  }

  /** The steps whose check passed, in order. */
  List<Integer> checkedSteps() {
    return List.copyOf(checkedSteps);
  }

  /** Stops everything now (the test goes on without local); how long the stop took. */
  Duration stop() {
    final long stopping = System.nanoTime();
    if (run != null) {
      run.close();
    }
    return Duration.ofNanos(System.nanoTime() - stopping);
  }
}

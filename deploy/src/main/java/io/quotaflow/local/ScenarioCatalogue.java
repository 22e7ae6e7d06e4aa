package io.quotaflow.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.quotaflow.config.Setting;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import io.quotaflow.simulate.RepeatedKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The scenarios of a directory: every {@code *.yaml} file directly in it is one scenario; the
 * manifest files a scenario names are relative to that directory. A scenario file reads:
 *
 * <pre>
 * summary: one line for --scenario list
 * revokeDelay: 5s                       # optional
 * settings: {fairshare.memory.enabled: "true"} # optional engine settings (--set wins)
 * cluster: [gpu-borrowing/cluster.yaml] # what the demo cluster starts with
 * steps:
 *   - say: team-b submits two jobs.
 *     create: [gpu-borrowing/team-b-jobs.yaml]   # optional
 *     bind: [team-b/b-1]                         # optional, with node:
 *     node: gpu-node
 *     admit: gpu-borrowing/a-4.yaml              # optional
 *     apply: [queue-reservation/team-a.yaml]     # optional: create or replace
 *     schedule: queue-reservation/b-3.yaml       # optional: ask the scheduler filter
 *     expect:
 *       runtime: {team-a: {nvidia.com/gpu: "4"}}
 *       evicted: [team-a/a-3]
 *       admission: denied
 *       reservation: {team-a: {nodes: [node-2, node-3], satisfied: true}}
 *       scheduled: {refused: [node-2, node-3], node: node-1}
 *       pastBorrowed: {team-a: {nvidia.com/gpu: "6"}} # at least, remembered by fair share
 *     within: 30s                                # optional, default 30s
 * </pre>
 *
 * The scenario's name is its file name without {@code .yaml}. A key may appear once in a mapping;
 * the manifest files are read by simulate's {@link io.quotaflow.simulate.ManifestReader}.
 */
final class ScenarioCatalogue {

  private static final String SUFFIX = ".yaml";
  private static final Duration DEFAULT_WITHIN = Duration.ofSeconds(30);
  // A repeated key (two expect: in one step) would otherwise drop an expectation without a word.
  private static final ObjectMapper YAML =
      YAMLMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  private final Path directory;

  ScenarioCatalogue(final Path directory) {
    this.directory = directory;
  }

  /** The scenarios, by name. */
  List<Scenario> all() {
    try (Stream<Path> files = Files.list(directory)) {
      final List<Path> yaml =
          files
              .filter(Files::isRegularFile)
              .filter(file -> file.getFileName().toString().endsWith(SUFFIX))
              .sorted(Comparator.comparing(Path::toString))
              .toList();
      final List<Scenario> scenarios = new ArrayList<>();
      for (final Path file : yaml) {
        scenarios.add(read(file));
      }
      return List.copyOf(scenarios);
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot list the scenarios in " + directory, e);
    }
  }

  /**
   * The scenario called {@code name}.
   *
   * @throws IllegalArgumentException naming the scenarios there are, when none is called so
   */
  Scenario named(final String name) {
    final Path file = directory.resolve(name + SUFFIX);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "No scenario '"
              + name
              + "' in "
              + directory
              + "; there are: "
              + String.join(", ", all().stream().map(Scenario::name).toList()));
    }
    return read(file);
  }

  private Scenario read(final Path file) {
    final String fileName = file.getFileName().toString();
    final String name = fileName.substring(0, fileName.length() - SUFFIX.length());
    final ScenarioFile raw;
    try {
      raw = YAML.readValue(file.toFile(), ScenarioFile.class);
    } catch (final JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Scenario "
              + file
              + " cannot be read: "
              + RepeatedKey.in(e, 0).map(RepeatedKey::describe).orElse(e.getMessage()));
    } catch (final IOException e) {
      throw new IllegalArgumentException("Scenario " + file + " cannot be read: " + e.getMessage());
    }
    try {
      return new Scenario(
          name,
          Optional.ofNullable(raw.summary()).orElse(""),
          Optional.ofNullable(raw.revokeDelay()).map(ScenarioCatalogue::checkedDuration),
          checkedSettings(raw.settings()),
          files(raw.cluster()),
          raw.steps() == null ? List.of() : raw.steps().stream().map(this::step).toList());
    } catch (final IllegalArgumentException e) {
      throw new IllegalArgumentException("Scenario " + file + ": " + e.getMessage(), e);
    }
  }

  private Scenario.Step step(final StepFile raw) {
    if (raw.say() == null || raw.say().isBlank()) {
      throw new IllegalArgumentException("every step says what happens ('say')");
    }
    final ExpectFile expect = raw.expect() == null ? ExpectFile.NONE : raw.expect();
    return new Scenario.Step(
        raw.say().strip(),
        files(raw.create()),
        files(raw.apply()),
        refs(raw.bind()),
        Optional.ofNullable(raw.node()),
        Optional.ofNullable(raw.admit()).map(directory::resolve),
        Optional.ofNullable(raw.schedule()).map(directory::resolve),
        new Scenario.Expect(
            checkedRuntime(expect.runtime()),
            refs(expect.evicted()),
            Optional.ofNullable(expect.admission())
                .map(text -> Scenario.AdmissionAnswer.valueOf(text.toUpperCase(Locale.ROOT))),
            reservations(expect.reservation()),
            Optional.ofNullable(expect.scheduled())
                .map(
                    scheduled ->
                        new Scenario.ScheduledExpect(
                            scheduled.refused() == null ? List.of() : scheduled.refused(),
                            Optional.ofNullable(scheduled.node()))),
            checkedRuntime(expect.pastBorrowed())),
        raw.within() == null ? DEFAULT_WITHIN : EngineSettings.REVOKE_DELAY.parse(raw.within()));
  }

  private static Map<String, Scenario.ReservationExpect> reservations(
      final Map<String, ReservationFile> raw) {
    if (raw == null) {
      return Map.of();
    }
    final Map<String, Scenario.ReservationExpect> reservations = new TreeMap<>();
    raw.forEach(
        (group, expected) ->
            reservations.put(
                group,
                new Scenario.ReservationExpect(
                    expected.nodes() == null ? List.of() : expected.nodes(),
                    Boolean.TRUE.equals(expected.satisfied()),
                    Boolean.TRUE.equals(expected.absent()))));
    return reservations;
  }

  private List<Path> files(final List<String> names) {
    return names == null ? List.of() : names.stream().map(directory::resolve).toList();
  }

  private static List<PodRef> refs(final List<String> names) {
    if (names == null) {
      return List.of();
    }
    return names.stream()
        .map(
            text -> {
              final int slash = text.indexOf('/');
              if (slash <= 0 || slash == text.length() - 1) {
                throw new IllegalArgumentException("a pod is NAMESPACE/NAME, not '" + text + "'");
              }
              return new PodRef(text.substring(0, slash), text.substring(slash + 1));
            })
        .toList();
  }

  private static Map<String, Map<String, String>> checkedRuntime(
      final Map<String, Map<String, String>> runtime) {
    if (runtime == null) {
      return Map.of();
    }
    runtime.forEach(
        (group, resources) ->
            resources.forEach((resource, text) -> Quantities.parse(resource, text)));
    return runtime;
  }

  /** Engine settings by key, each known and readable. */
  private static Map<String, String> checkedSettings(final Map<String, String> raw) {
    if (raw == null) {
      return Map.of();
    }
    raw.forEach(
        (key, value) -> {
          final Setting<?> setting =
              EngineSettings.ALL.stream()
                  .filter(known -> known.key().equals(key))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "'settings' names no engine setting " + key));
          setting.parse(String.valueOf(value));
        });
    return raw;
  }

  private static String checkedDuration(final String text) {
    EngineSettings.REVOKE_DELAY.parse(text);
    return text;
  }

  /** A scenario file as written. */
  record ScenarioFile(
      String summary,
      String revokeDelay,
      Map<String, String> settings,
      List<String> cluster,
      List<StepFile> steps) {}

  /** A step as written. */
  record StepFile(
      String say,
      List<String> create,
      List<String> apply,
      List<String> bind,
      String node,
      String admit,
      String schedule,
      ExpectFile expect,
      String within) {}

  /** An expectation as written. */
  record ExpectFile(
      Map<String, Map<String, String>> runtime,
      List<String> evicted,
      String admission,
      Map<String, ReservationFile> reservation,
      ScheduledFile scheduled,
      Map<String, Map<String, String>> pastBorrowed) {
    static final ExpectFile NONE = new ExpectFile(null, null, null, null, null, null);
  }

  /**
   * An expected reservation as written: {@code {nodes: [...], satisfied: true}} or {@code {absent:
   * true}}.
   */
  record ReservationFile(List<String> nodes, Boolean satisfied, Boolean absent) {}

  /** An expected filter answer as written: {@code {refused: [...], node: node-1}}. */
  record ScheduledFile(List<String> refused, String node) {}
}

package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.config.QuotaSemantics;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.Setting;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.simulate.BadInputException;
import io.quotaflow.simulate.SimulateConfig;
import io.quotaflow.tree.QuotaOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 42.3: every setting of quota semantics ({@link QuotaSettings}) is accepted, and read alike,
 * by every reader of quota semantics: the engine, {@code quotaflow local} ({@code --set} and a
 * scenario's {@code settings}), and {@code simulate --config} (which {@code explain --config}
 * shares). The what-if computes with the engine's options ({@code EnginePlugin} hands it {@code
 * EngineConfig.quotaOptions()}), so the engine's row is its row. A setting added to the catalogue
 * fails {@link #everySettingOfTheCatalogueHasAnotherValueHere} until it is given a value here, and
 * then every reader is checked with it.
 */
class SettingsCatalogueTest {
  private static final Path DATA = Path.of("/tmp/quotaflow-catalogue-test");

  /** For each setting, values that make its semantics differ from the defaults'. */
  private static final Map<Setting<?>, Map<Setting<?>, String>> OTHER = new LinkedHashMap<>();

  static {
    other(QuotaSettings.NAMESPACE_BINDING_OPEN, "true");
    other(QuotaSettings.NAMESPACE_BINDING_NAMESAKE, "true");
    other(QuotaSettings.NAMESPACE_BINDING_UNKNOWN_OPEN, "true");
    other(QuotaSettings.SPECIAL_GROUP_NAMESPACES, "kube-system,quotaflow,monitoring");
    other(QuotaSettings.SPECIAL_QUOTA_NAMESPACES, "koordinator-system");
    other(QuotaSettings.MIN_SCALING, "false");
    other(QuotaSettings.DEFAULT_SHARED_WEIGHT, "min");
    other(QuotaSettings.USED_POLICY, "running");
    other(QuotaSettings.COUNT_TERMINATING_PODS, "false");
    other(QuotaSettings.ONLY_READY_SCHEDULABLE_NODES, "true");
    other(QuotaSettings.DERIVED_RESOURCES, "nvidia.com/gpu -> quotaflow.io/gpu-memory x 32");
    other(QuotaSettings.DEFAULT_GROUP_MAX, "{\"cpu\": \"4\", \"memory\": \"8Gi\"}");
    other(
        QuotaSettings.DEVICE_CLASSES,
        "gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]");
    other(QuotaSettings.DEVICE_UNMAPPED_CLASS, "nvidia.com/gpu x 1");
    other(QuotaSettings.GUARANTEE_USAGE, "true");
    other(QuotaSettings.PARENT_PODS, "true");
    other(QuotaSettings.RESERVATION_MAX_LOCKED_PERCENT, "30");
    other(QuotaSettings.FAIRSHARE_MEMORY_ENABLED, "true");
    // The half-life means something only with the memory on.
    OTHER.put(
        QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE,
        Map.of(
            QuotaSettings.FAIRSHARE_MEMORY_ENABLED, "true",
            QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE, "1d"));
  }

  @TempDir Path dir;

  private static void other(Setting<?> setting, String value) {
    OTHER.put(setting, Map.of(setting, value));
  }

  static Stream<Setting<?>> settings() {
    return QuotaSettings.ALL.stream();
  }

  @Test
  void everySettingOfTheCatalogueHasAnotherValueHere() {
    assertThat(OTHER.keySet()).containsExactlyInAnyOrderElementsOf(QuotaSettings.ALL);
  }

  @Test
  void theEngineListsEverySettingOfTheCatalogueAsItIsDeclared() {
    assertThat(EngineSettings.ALL).containsAll(QuotaSettings.ALL);
  }

  @Test
  void simulateNamesEverySettingOfTheCatalogueAndNoOther() {
    assertThat(SimulateConfig.names())
        .containsExactlyElementsOf(QuotaSettings.ALL.stream().map(QuotaSettings::fileName).toList())
        .doesNotHaveDuplicates();
  }

  @Test
  void everyReaderStartsFromTheSameDefaults() throws IOException {
    final QuotaSemantics engine = EngineConfig.defaults().semantics();

    assertThat(engine.options()).isEqualTo(QuotaOptions.DEFAULTS);
    assertThat(local(Map.of())).isEqualTo(engine);
    assertThat(scenario(Map.of())).isEqualTo(engine);
    assertThat(simulate(Map.of())).isEqualTo(engine);
  }

  @ParameterizedTest
  @MethodSource("settings")
  void everyReaderAcceptsTheSettingAndReadsItAsTheEngineDoes(Setting<?> setting)
      throws IOException {
    final Map<String, String> values = keys(OTHER.get(setting));
    final EngineConfig.Builder builder = EngineConfig.builder();
    values.forEach(builder::set);
    final EngineConfig config = builder.build();
    final QuotaSemantics engine = config.semantics();

    assertThat(engine)
        .as("%s changes the engine's semantics", setting.key())
        .isNotEqualTo(semantics(withoutTheSetting(setting)));
    assertThat(config.quotaOptions().withProtectedPods(ProtectedPods.DEFAULTS))
        .as("the engine computes with the catalogue's options (reclaim's pods aside)")
        .isEqualTo(engine.options());
    assertThat(local(values)).as("local --set %s", values).isEqualTo(engine);
    assertThat(scenario(values)).as("a scenario's settings %s", values).isEqualTo(engine);
    assertThat(simulate(OTHER.get(setting))).as("simulate --config %s", values).isEqualTo(engine);
  }

  /** The other values of {@code setting}'s case, without {@code setting} itself. */
  private static Map<String, String> withoutTheSetting(Setting<?> setting) {
    final Map<String, String> values = keys(OTHER.get(setting));
    values.remove(setting.key());
    return values;
  }

  private static QuotaSemantics semantics(Map<String, String> values) {
    final EngineConfig.Builder builder = EngineConfig.builder();
    values.forEach(builder::set);
    return builder.build().semantics();
  }

  private static Map<String, String> keys(Map<Setting<?>, String> values) {
    return values.entrySet().stream()
        .collect(
            Collectors.toMap(
                entry -> entry.getKey().key(),
                Map.Entry::getValue,
                (a, b) -> a,
                LinkedHashMap::new));
  }

  private static QuotaSemantics local(Map<String, String> values) {
    LocalSettings settings = LocalSettings.demo(Path.of("examples"), 0);
    for (final Map.Entry<String, String> entry : values.entrySet()) {
      settings = settings.withSetting(entry.getKey(), entry.getValue());
    }
    return LocalEngineConfig.of(settings, "localhost:1234", DATA).semantics();
  }

  /** Read from a scenario file, as {@code local --scenario} reads it, then played. */
  private QuotaSemantics scenario(Map<String, String> values) throws IOException {
    final StringBuilder yaml = new StringBuilder("summary: settings\nsettings:\n");
    values.forEach(
        (key, value) ->
            yaml.append("  \"").append(key).append("\": '").append(value).append("'\n"));
    if (values.isEmpty()) {
      yaml.append("  {}\n");
    }
    yaml.append("steps: []\n");
    final Path scenarios = Files.createDirectories(dir.resolve("scenarios"));
    Files.writeString(scenarios.resolve("s.yaml"), yaml);
    final Scenario scenario = new ScenarioCatalogue(scenarios).named("s");
    return LocalEngineConfig.of(
            LocalSettings.demo(Path.of("examples"), 0).withScenario(scenario),
            "localhost:1234",
            DATA)
        .semantics();
  }

  private QuotaSemantics simulate(Map<Setting<?>, String> values) throws IOException {
    final String properties =
        values.entrySet().stream()
            .map(entry -> QuotaSettings.fileName(entry.getKey()) + "=" + entry.getValue() + "\n")
            .collect(Collectors.joining());
    final Path file = Files.writeString(dir.resolve("simulate.properties"), properties);
    try {
      return SimulateConfig.read(file);
    } catch (BadInputException e) {
      throw new AssertionError("simulate refuses " + keys(values) + ": " + e.getMessage(), e);
    }
  }
}

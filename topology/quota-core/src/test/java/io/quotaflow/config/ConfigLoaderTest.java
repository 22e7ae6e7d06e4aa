package io.quotaflow.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ConfigLoaderTest {

  private static final Setting<Duration> DELAY =
      new Setting<>("test.delay", "duration", "2m", "A delay.", Parsers::duration);
  private static final Setting<Integer> COUNT =
      new Setting<>("test.count", "int", "3", "A count.", Parsers::positiveInt);
  private static final Setting<Boolean> ENABLED =
      new Setting<>("test.enabled", "boolean", "true", "A switch.", Parsers::bool);
  private static final Setting<String> TOKEN =
      new Setting<>("test.token", "string", "none", "A credential.", Parsers::text);
  private static final List<Setting<?>> CATALOGUE = List.of(DELAY, COUNT, ENABLED, TOKEN);

  /** A setting of another component, such as the admission plugin's beside the engine. */
  private static final Setting<Integer> OTHER_PORT =
      new Setting<>("other.port", "int", "8443", "Another component's port.", Parsers::port);

  @TempDir Path dir;

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void captureWarnings() {
    logged.start();
    ((Logger) LoggerFactory.getLogger(ConfigSources.class)).addAppender(logged);
  }

  @AfterEach
  void stopCapturing() {
    ((Logger) LoggerFactory.getLogger(ConfigSources.class)).detachAppender(logged);
  }

  @Test
  void everyMissingSettingTakesItsDefaultAndNothingPassesThrough() {
    final LoadedConfig config = ConfigLoader.of(CATALOGUE).build();

    assertThat(config.get(DELAY)).isEqualTo(Duration.ofMinutes(2));
    assertThat(config.get(COUNT)).isEqualTo(3);
    assertThat(config.get(ENABLED)).isTrue();
    assertThat(config.passThrough()).isEmpty();
  }

  @Test
  void theEnvironmentOverridesTheFileAndExplicitValuesOverrideBoth() throws IOException {
    final Path file =
        properties("test.delay=10s\ntest.count=4\ntest.enabled=false\nlinger.ms=1\nacks=1\n");

    final LoadedConfig config =
        ConfigLoader.of(CATALOGUE)
            .file(file)
            .environment(
                Map.of(
                    "QUOTAFLOW_TEST_DELAY", "20s",
                    "QUOTAFLOW_TEST_COUNT", "5",
                    "QUOTAFLOW_KAFKA_LINGER_MS", "2"))
            .set("test.count", "6")
            .set("linger.ms", "3")
            .build();

    assertThat(config.get(ENABLED)).as("file only").isFalse();
    assertThat(config.get(DELAY)).as("file < environment").isEqualTo(Duration.ofSeconds(20));
    assertThat(config.get(COUNT)).as("file < environment < set").isEqualTo(6);
    assertThat(config.passThrough())
        .containsExactlyInAnyOrderEntriesOf(Map.of("linger.ms", "3", "acks", "1"));
  }

  @Test
  void aSourceAddedLaterWinsWhateverItsKind() throws IOException {
    final Path file = properties("test.count=4\n");

    final LoadedConfig config =
        ConfigLoader.of(CATALOGUE)
            .set("test.count", "6")
            .environment(Map.of("QUOTAFLOW_TEST_COUNT", "5"))
            .file(file)
            .build();

    assertThat(config.get(COUNT)).isEqualTo(4);
  }

  @Test
  void kafkaVariablesBecomeDottedLowerCaseKeysAndOtherVariablesAreIgnored() {
    final LoadedConfig config =
        ConfigLoader.of(CATALOGUE)
            .environment(
                Map.of(
                    "QUOTAFLOW_KAFKA_SECURITY_PROTOCOL", "SSL",
                    "QUOTAFLOW_KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                    "QUOTAFLOW_ADMISSION_PORT", "9443",
                    "QUOTAFLOW_OTHER_PORT", "9443",
                    "TEST_COUNT", "9",
                    "HOME", "/root"))
            .build();

    assertThat(config.passThrough())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("security.protocol", "SSL", "bootstrap.servers", "kafka:9092"));
    assertThat(config.get(COUNT)).isEqualTo(3);
  }

  @Test
  void settingsOfComponentsStartedAlongsideAreReadFromTheEnvironmentAndPassThrough() {
    final LoadedConfig config =
        ConfigLoader.of(CATALOGUE)
            .environment(Map.of("QUOTAFLOW_OTHER_PORT", "9443"), List.of(OTHER_PORT))
            .build();

    assertThat(config.passThrough()).containsExactlyEntriesOf(Map.of("other.port", "9443"));
    assertThat(config.passThrough("other.port")).contains("9443");
    assertThat(config.passThrough("other.host")).isEmpty();
  }

  @Test
  void valuesAreTrimmed() {
    final LoadedConfig config = ConfigLoader.of(CATALOGUE).set("test.count", " 7 \t").build();

    assertThat(config.get(COUNT)).isEqualTo(7);
    assertThat(config.describe()).contains("test.count = 7");
  }

  @Test
  void aValueThatDoesNotParseNamesItsSettingTheValueAndTheType() {
    final ConfigLoader loader = ConfigLoader.of(CATALOGUE).set("test.delay", "soon");

    assertThatThrownBy(loader::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.delay")
        .hasMessageContaining("'soon'")
        .hasMessageContaining("duration");
  }

  @Test
  void aBadEnvironmentValueNamesTheSettingItSets() {
    final ConfigLoader loader =
        ConfigLoader.of(CATALOGUE).environment(Map.of("QUOTAFLOW_TEST_ENABLED", "yes"));

    assertThatThrownBy(loader::build)
        .hasMessageContaining("test.enabled")
        .hasMessageContaining("true or false");
  }

  @Test
  void anUnreadableFileIsRefusedNamingIt() {
    final Path missing = dir.resolve("missing.properties");

    assertThatThrownBy(() -> ConfigLoader.of(CATALOGUE).file(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aCatalogueWithTwoSettingsOfOneKeyIsRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(List.of(COUNT, COUNT.withDoc("Again."))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.count");
  }

  @Test
  void aSettingOutsideTheCatalogueHasNoValue() {
    final LoadedConfig config = ConfigLoader.of(CATALOGUE).set("other.port", "1").build();

    assertThatThrownBy(() -> config.get(OTHER_PORT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other.port");
  }

  @Test
  void theDescriptionListsTheCatalogueInOrderThenPassThroughKeysSortedWithSecretsMasked() {
    final LoadedConfig config =
        ConfigLoader.of(CATALOGUE)
            .set("test.token", "hunter2")
            .set("ssl.keystore.password", "hunter2")
            .set("sasl.jaas.config", "PlainLoginModule required password=\"hunter2\";")
            .set("bootstrap.servers", "kafka:9092")
            .set("test.delay", "90s")
            .build();

    final List<String> lines = config.describe();

    assertThat(String.join("\n", lines)).doesNotContain("hunter2");
    assertThat(lines)
        .containsExactly(
            "test.delay = 90s",
            "test.count = 3",
            "test.enabled = true",
            "test.token = " + Secrets.MASK,
            "bootstrap.servers = kafka:9092",
            "sasl.jaas.config = " + Secrets.MASK,
            "ssl.keystore.password = " + Secrets.MASK);
    assertThat(config.toString()).doesNotContain("hunter2").contains("test.delay = 90s");
  }

  @Test
  void aDeprecatedAliasSetsTheSettingWhenItsKeyIsNotSetAndWarnsNamingTheKey() {
    final Setting<Integer> renamed = COUNT.withDeprecatedAlias("test.old.count");

    final LoadedConfig config =
        ConfigLoader.of(List.of(DELAY, renamed)).set("test.old.count", "8").build();

    assertThat(config.get(renamed)).isEqualTo(8);
    assertThat(config.passThrough()).as("an alias is no Kafka setting").isEmpty();
    assertThat(config.describe()).contains("test.count = 8");
    assertThat(warnings())
        .containsExactly(
            "test.old.count is deprecated: its value is used for test.count; set test.count"
                + " instead");
  }

  @Test
  void theKeyWinsOverItsDeprecatedAliasWhateverTheOrderOfTheSourcesAndThatIsLogged()
      throws IOException {
    final Setting<Integer> renamed = COUNT.withDeprecatedAlias("test.older.count");
    final Path file = properties("test.count=4\n");

    final LoadedConfig config =
        ConfigLoader.of(List.of(renamed))
            .file(file)
            .environment(Map.of("QUOTAFLOW_TEST_OLDER_COUNT", "5"))
            .set("test.older.count", "6")
            .build();

    assertThat(config.get(renamed)).isEqualTo(4);
    assertThat(config.passThrough()).isEmpty();
    assertThat(warnings())
        .containsExactly(
            "test.older.count is deprecated and ignored: test.count is set too and wins; set"
                + " test.count only");
  }

  @Test
  void anAliasIsReadFromItsOwnEnvironmentVariableAndFromAFile() throws IOException {
    final Setting<Duration> renamed = DELAY.withDeprecatedAlias("test.old.delay");

    assertThat(
            ConfigLoader.of(List.of(renamed))
                .environment(Map.of("QUOTAFLOW_TEST_OLD_DELAY", "20s"))
                .build()
                .get(renamed))
        .isEqualTo(Duration.ofSeconds(20));
    assertThat(
            ConfigLoader.of(List.of(renamed))
                .file(properties("test.old.delay=30s\n"))
                .build()
                .get(renamed))
        .isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void anAliasOfAComponentStartedAlongsidePassesThroughUnderItsOwnKeyToThatComponent() {
    final Setting<Integer> renamed = OTHER_PORT.withDeprecatedAlias("other.old.port");

    final LoadedConfig engine =
        ConfigLoader.of(CATALOGUE)
            .environment(Map.of("QUOTAFLOW_OTHER_OLD_PORT", "9443"), List.of(renamed))
            .build();
    final LoadedConfig other =
        ConfigLoader.of(List.of(renamed)).setAll(engine.passThrough()).build();

    assertThat(engine.passThrough()).containsExactlyEntriesOf(Map.of("other.old.port", "9443"));
    assertThat(other.get(renamed)).isEqualTo(9443);
  }

  @Test
  void anAliasWarnsOncePerProcessHoweverOftenTheConfigurationIsRead() {
    final Setting<Integer> renamed = COUNT.withDeprecatedAlias("test.oldest.count");

    for (int i = 0; i < 3; i++) {
      assertThat(
              ConfigLoader.of(List.of(renamed)).set("test.oldest.count", "9").build().get(renamed))
          .isEqualTo(9);
    }

    assertThat(warnings()).hasSize(1).allSatisfy(w -> assertThat(w).contains("test.count"));
  }

  @Test
  void anAliasThatIsAlsoAKeyOrAnotherSettingsAliasIsRefused() {
    assertThatThrownBy(
            () -> ConfigLoader.of(List.of(DELAY, COUNT.withDeprecatedAlias("test.delay"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.delay");
    assertThatThrownBy(
            () ->
                ConfigLoader.of(
                    List.of(
                        DELAY.withDeprecatedAlias("test.old"),
                        COUNT.withDeprecatedAlias("test.old"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.old");
  }

  private List<String> warnings() {
    return logged.list.stream()
        .filter(event -> event.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  private Path properties(final String text) throws IOException {
    final Path file = dir.resolve("test.properties");
    Files.writeString(file, text);
    return file;
  }
}

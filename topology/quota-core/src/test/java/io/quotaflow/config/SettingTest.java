package io.quotaflow.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingTest {

  private static final Setting<Duration> DELAY =
      new Setting<>("revoke.delay", "duration", "120s", "How long.", Parsers::duration);

  @Test
  void theEnvironmentVariableIsThePrefixAndTheKeyInUpperSnakeCase() {
    assertThat(DELAY.environmentName()).isEqualTo("QUOTAFLOW_REVOKE_DELAY");
  }

  @Test
  void aDefaultThatDoesNotParseIsRefusedWhenTheSettingIsDeclared() {
    assertThatThrownBy(
            () -> new Setting<>("test.count", "int", "many", "A count.", Parsers::positiveInt))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.count")
        .hasMessageContaining("'many'");
  }

  @Test
  void parsingTrimsAndAFailureNamesKeyValueTypeAndWhatIsExpected() {
    assertThat(DELAY.parse(" 2m ")).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> DELAY.parse("soon"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value 'soon' for revoke.delay (duration): expected a duration such as 100ms,"
                + " 1s, 2m, 1h or PT2M");
  }

  @Test
  void anotherDescriptionKeepsKeyTypeDefaultAndParser() {
    final Setting<Duration> described = DELAY.withDoc("Another component's reading.");

    assertThat(described.doc()).isEqualTo("Another component's reading.");
    assertThat(described.key()).isEqualTo(DELAY.key());
    assertThat(described.type()).isEqualTo(DELAY.type());
    assertThat(described.defaultValue()).isEqualTo(DELAY.defaultValue());
    assertThat(described.parse("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aDeprecatedAliasKeepsEverythingElseAndAnotherDescriptionKeepsTheAlias() {
    final Setting<Duration> renamed = DELAY.withDeprecatedAlias("eviction.delay");

    assertThat(DELAY.deprecatedAliases()).isEmpty();
    assertThat(renamed.deprecatedAliases()).containsExactly("eviction.delay");
    assertThat(renamed.key()).isEqualTo(DELAY.key());
    assertThat(renamed.type()).isEqualTo(DELAY.type());
    assertThat(renamed.defaultValue()).isEqualTo(DELAY.defaultValue());
    assertThat(renamed.doc()).isEqualTo(DELAY.doc());
    assertThat(renamed.environmentName()).isEqualTo("QUOTAFLOW_REVOKE_DELAY");
    assertThat(renamed.withDoc("Again.").deprecatedAliases()).containsExactly("eviction.delay");
    assertThat(renamed.withDeprecatedAlias("pod.delay").deprecatedAliases())
        .containsExactly("eviction.delay", "pod.delay");
  }

  @Test
  void anAliasThatIsBlankOrTheKeyItselfIsRefused() {
    assertThatThrownBy(() -> DELAY.withDeprecatedAlias(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("revoke.delay");
    assertThatThrownBy(() -> DELAY.withDeprecatedAlias("revoke.delay"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("revoke.delay");
  }

  @Test
  void secretsAreRecognisedByTheirKeys() {
    assertThat(Secrets.isSecret("ssl.key.password")).isTrue();
    assertThat(Secrets.isSecret("SASL.JAAS.CONFIG")).isTrue();
    assertThat(Secrets.isSecret("producer.ssl.truststore.password")).isTrue();
    assertThat(Secrets.isSecret("client.secret")).isTrue();
    assertThat(Secrets.isSecret("bootstrap.servers")).isFalse();
    assertThat(Secrets.shown("api.token", "abc")).isEqualTo(Secrets.MASK);
    assertThat(Secrets.shown("revoke.delay", "120s")).isEqualTo("120s");
  }
}

package io.quotaflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaSecurityTest {

  private static final String PASSWORD = "store-password-42";
  private static final String SCRAM =
      "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"quotaflow\""
          + " password=\"user-password-42\";";

  @TempDir static Path dir;

  private static Path keyStore;
  private static Path trustStore;
  private static Path pemCertificate;

  @BeforeAll
  static void createStores() throws Exception {
    keyStore = dir.resolve("user.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "user",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=quotaflow",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    final Path certificate = dir.resolve("user.der");
    keytool(
        "-exportcert",
        "-alias",
        "user",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certificate.toString());
    trustStore = dir.resolve("ca.p12");
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        PASSWORD);
    pemCertificate = dir.resolve("ca.crt");
    Files.writeString(
        pemCertificate,
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder().encodeToString(Files.readAllBytes(certificate))
            + "\n-----END CERTIFICATE-----\n");
  }

  @Test
  void plaintextWithoutSecuritySettingsHasNoProblem() {
    assertThat(KafkaSecurity.problems(Map.of("bootstrap.servers", "kafka:9092"))).isEmpty();
  }

  @Test
  void anUnknownProtocolIsNamedWithTheKnownOnes() {
    assertThat(KafkaSecurity.problems(Map.of("security.protocol", "TLS")))
        .containsExactly(
            "security.protocol 'TLS' is not a security protocol; expected one of"
                + " [PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL]");
  }

  @Test
  void theProtocolIsReadInAnyCase() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "sasl_ssl",
                    "sasl.mechanism", "SCRAM-SHA-512",
                    "sasl.jaas.config", SCRAM)))
        .isEmpty();
  }

  @Test
  void tlsWithTrustAndKeyStoresThatOpenHasNoProblem() {
    final Map<String, String> settings = new HashMap<>();
    settings.put("security.protocol", "SSL");
    settings.put("ssl.truststore.location", trustStore.toString());
    settings.put("ssl.truststore.type", "PKCS12");
    settings.put("ssl.truststore.password", PASSWORD);
    settings.put("ssl.keystore.location", keyStore.toString());
    settings.put("ssl.keystore.type", "PKCS12");
    settings.put("ssl.keystore.password", PASSWORD);

    assertThat(KafkaSecurity.problems(settings)).isEmpty();
  }

  @Test
  void aPemTrustStoreIsReadAsCertificates() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "SSL",
                    "ssl.truststore.type", "PEM",
                    "ssl.truststore.location", pemCertificate.toString())))
        .isEmpty();
  }

  @Test
  void aMissingTrustStoreFileIsNamed() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "SSL",
                    "ssl.truststore.location", "/etc/quotaflow/kafka/missing.p12")))
        .containsExactly(
            "ssl.truststore.location names /etc/quotaflow/kafka/missing.p12, which is not a"
                + " readable file (is the Secret mounted there?)");
  }

  @Test
  void aTrustStoreThatDoesNotOpenWithItsPasswordIsNamedWithoutThePassword() {
    final List<String> problems =
        KafkaSecurity.problems(
            Map.of(
                "security.protocol", "SSL",
                "ssl.truststore.location", trustStore.toString(),
                "ssl.truststore.type", "PKCS12",
                "ssl.truststore.password", "wrong-password-7"));

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("ssl.truststore.location " + trustStore + " does not open as a PKCS12 store")
        .contains("ssl.truststore.password")
        .doesNotContain("wrong-password-7");
  }

  @Test
  void aKeyStoreNeedsItsPasswordAndAPrivateKey() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "SSL",
                    "ssl.keystore.location", keyStore.toString(),
                    "ssl.keystore.type", "PKCS12")))
        .containsExactly(
            "ssl.keystore.location is a PKCS12 store but ssl.keystore.password is not set");
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol",
                    "SSL",
                    "ssl.keystore.location",
                    trustStore.toString(),
                    "ssl.keystore.type",
                    "PKCS12",
                    "ssl.keystore.password",
                    PASSWORD)))
        .containsExactly("ssl.keystore.location " + trustStore + " holds no private key");
  }

  @Test
  void aSaslMechanismWithoutJaasConfigurationIsNamed() {
    assertThat(
            KafkaSecurity.problems(
                Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512")))
        .containsExactly(
            "sasl.mechanism SCRAM-SHA-512 (security.protocol SASL_SSL) needs sasl.jaas.config,"
                + " e.g. the key sasl.jaas.config of the KafkaUser's Secret");
  }

  @Test
  void anUnknownSaslMechanismIsNamed() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "SASL_PLAINTEXT",
                    "sasl.mechanism", "SCRAM",
                    "sasl.jaas.config", SCRAM)))
        .singleElement()
        .asString()
        .startsWith("sasl.mechanism 'SCRAM' is not a mechanism Kafka's clients support");
  }

  @Test
  void aJaasConfigurationForAnotherMechanismIsNamed() {
    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "security.protocol", "SASL_SSL",
                    "sasl.mechanism", "PLAIN",
                    "sasl.jaas.config", SCRAM)))
        .containsExactly(
            "sasl.jaas.config uses org.apache.kafka.common.security.scram.ScramLoginModule but"
                + " sasl.mechanism PLAIN needs"
                + " org.apache.kafka.common.security.plain.PlainLoginModule");
  }

  @Test
  void aJaasConfigurationThatDoesNotParseIsNamedWithoutItsSecrets() {
    final String unterminated = SCRAM.substring(0, SCRAM.length() - 1);

    final List<String> problems =
        KafkaSecurity.problems(
            Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", unterminated));

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith("sasl.jaas.config is not a JAAS configuration (")
        .doesNotContain("user-password-42");
  }

  @Test
  void settingsTheProtocolWouldIgnoreAreNamedAllAtOnce() {
    final List<String> problems =
        KafkaSecurity.problems(
            Map.of(
                "ssl.truststore.location",
                trustStore.toString(),
                "sasl.mechanism",
                "SCRAM-SHA-512",
                "sasl.jaas.config",
                SCRAM));

    assertThat(problems)
        .containsExactlyInAnyOrder(
            "ssl.truststore.location is set but security.protocol is PLAINTEXT, which ignores"
                + " it; use SSL or SASL_SSL",
            "sasl.mechanism is set but security.protocol is PLAINTEXT, which ignores it; use"
                + " SASL_PLAINTEXT or SASL_SSL",
            "sasl.jaas.config is set but security.protocol is PLAINTEXT, which ignores it; use"
                + " SASL_PLAINTEXT or SASL_SSL");
    assertThatThrownBy(
            () ->
                KafkaSecurity.check(Map.of("security.protocol", "SSL", "sasl.jaas.config", SCRAM)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Kafka security settings: sasl.jaas.config is set but security.protocol is SSL,"
                + " which ignores it; use SASL_PLAINTEXT or SASL_SSL");
  }

  @Test
  void valuesFromAMountedSecretAreResolvedThroughKafkasDirectoryConfigProvider() throws Exception {
    final Path secret = Files.createDirectories(dir.resolve("kafka-user"));
    Files.writeString(secret.resolve("sasl.jaas.config"), SCRAM);
    final Map<String, String> settings = new HashMap<>();
    settings.put("config.providers", "secret");
    settings.put(
        "config.providers.secret.class",
        "org.apache.kafka.common.config.provider.DirectoryConfigProvider");
    settings.put("security.protocol", "SASL_SSL");
    settings.put("sasl.mechanism", "SCRAM-SHA-512");
    settings.put("sasl.jaas.config", "${secret:" + secret + ":sasl.jaas.config}");

    assertThat(KafkaSecurity.problems(settings)).isEmpty();

    settings.put("sasl.mechanism", "PLAIN");
    assertThat(KafkaSecurity.problems(settings))
        .singleElement()
        .asString()
        .startsWith("sasl.jaas.config uses org.apache.kafka.common.security.scram");
  }

  @Test
  void aReferenceToASecretThatIsNotMountedIsNamed() {
    final Path missing = dir.resolve("not-mounted");

    assertThat(
            KafkaSecurity.problems(
                Map.of(
                    "config.providers", "secret",
                    "config.providers.secret.class",
                        "org.apache.kafka.common.config.provider.DirectoryConfigProvider",
                    "security.protocol", "SASL_SSL",
                    "sasl.mechanism", "SCRAM-SHA-512",
                    "sasl.jaas.config", "${secret:" + missing + ":sasl.jaas.config}")))
        .containsExactly(
            "sasl.jaas.config refers to ${secret:"
                + missing
                + ":sasl.jaas.config}, which its config provider cannot resolve (is the Secret"
                + " mounted there?)");
  }

  @Test
  void everyCheckedSettingIsAKafkaClientSetting() {
    assertThat(KafkaSecurity.SETTINGS)
        .extracting(SecuritySetting::key)
        .allSatisfy(key -> assertThat(ProducerConfig.configNames()).contains(key));
  }

  private static void keytool(final String... args) throws Exception {
    final List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String output =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }

  /** Issue 25: PLAINTEXT beyond this machine is refused unless allowed. */
  @org.junit.jupiter.api.Test
  void plaintextToARemoteBrokerIsRefusedUnlessAllowed() {
    final Map<String, String> remote = Map.of("bootstrap.servers", "kafka.kafka.svc:9092");

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> KafkaSecurity.requireEncrypted(remote, false, "allow.plaintext.kafka"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("security.protocol is PLAINTEXT to kafka.kafka.svc:9092")
        .hasMessageContaining("allow.plaintext.kafka=true");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                KafkaSecurity.requireEncrypted(
                    Map.of(
                        "bootstrap.servers", "kafka:9092", "security.protocol", "sasl_plaintext"),
                    false,
                    "allow.plaintext.kafka"))
        .hasMessageContaining("SASL_PLAINTEXT");
    KafkaSecurity.requireEncrypted(remote, true, "allow.plaintext.kafka");
    KafkaSecurity.requireEncrypted(
        Map.of("bootstrap.servers", "kafka:9093", "security.protocol", "SASL_SSL"),
        false,
        "allow.plaintext.kafka");
  }

  @org.junit.jupiter.api.Test
  void plaintextToABrokerOnThisMachineIsAllowed() {
    KafkaSecurity.requireEncrypted(
        Map.of("bootstrap.servers", "127.0.0.1:9092,localhost:9093"), false, "x");
  }
}

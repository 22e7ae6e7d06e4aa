package io.quotaflow.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quotaflow.connect.ConnectConfig;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.fixtures.SelfSignedCertificate;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kustomize component {@code components/kafka-scram-tls}, rendered over the base manifests as
 * an overlay would: the Kafka settings it gives the engine and the connectors pass the start-up
 * check once their Secrets are mounted (files standing in for them), fail it while they are not,
 * and each component mounts its own KafkaUser's Secret.
 */
class KafkaSecurityComponentTest {

  private static final Path KUBERNETES = Path.of("kubernetes").toAbsolutePath();
  private static final String SCRAM =
      "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"quotaflow\""
          + " password=\"from-the-secret\";";

  @TempDir Path dir;

  private List<HasMetadata> rendered;

  @BeforeEach
  void render() throws Exception {
    assumeTrue(kubectlRuns(), "kubectl is not installed");
    final Path overlay = Files.createDirectories(dir.resolve("overlay"));
    Files.writeString(
        overlay.resolve("kustomization.yaml"),
        String.join(
            "\n",
            "resources: [" + overlay.relativize(KUBERNETES.resolve("base")) + "]",
            "components: ["
                + overlay.relativize(KUBERNETES.resolve("components/kafka-scram-tls"))
                + "]",
            ""));
    final Process process =
        new ProcessBuilder("kubectl", "kustomize", overlay.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    final byte[] output = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    final Object parsed = new KubernetesSerialization().unmarshal(new ByteArrayInputStream(output));
    rendered = parsed instanceof List<?> list ? castAll(list) : List.of((HasMetadata) parsed);
  }

  @Test
  void theEnginesSettingsPassTheStartUpCheckOnceItsSecretsAreMounted() throws Exception {
    final PodSpec pod = workload(StatefulSet.class).getSpec().getTemplate().getSpec();
    final Map<String, String> kafka =
        EngineConfig.builder().environment(environment(pod)).build().kafka();

    assertThat(kafka).containsEntry("security.protocol", "SASL_SSL");
    assertThat(KafkaSecurity.problems(mounted(pod, kafka))).isEmpty();
    assertThat(KafkaSecurity.problems(kafka))
        .as("without the Secrets mounted")
        .singleElement()
        .asString()
        .contains("/etc/quotaflow/kafka-user");
    assertThat(secretOf(pod, "kafka-user")).isEqualTo("quotaflow-engine");
  }

  @Test
  void theConnectorsSettingsPassTheStartUpCheckOnceTheirSecretsAreMounted() throws Exception {
    final PodSpec pod = workload(Deployment.class).getSpec().getTemplate().getSpec();
    final Map<String, String> kafka = new HashMap<>();
    ConnectConfig.builder()
        .environment(environment(pod))
        .build()
        .kafka()
        .forEach((key, value) -> kafka.put(key, value.toString()));

    assertThat(KafkaSecurity.problems(mounted(pod, kafka))).isEmpty();
    assertThat(secretOf(pod, "kafka-user")).isEqualTo("quotaflow-connectors");
  }

  @Test
  void eachComponentMountsTheSecretOfItsKafkaUser() throws IOException {
    final List<String> users =
        StrimziExamples.users().stream()
            .map(user -> user.path("metadata").path("name").asText())
            .toList();

    assertThat(
            List.of(
                secretOf(
                    workload(StatefulSet.class).getSpec().getTemplate().getSpec(), "kafka-user"),
                secretOf(
                    workload(Deployment.class).getSpec().getTemplate().getSpec(), "kafka-user")))
        .containsExactlyInAnyOrderElementsOf(users);
  }

  /**
   * The settings as they read inside the pod: each Secret volume's items written as files under the
   * test's directory, standing in for its mount path.
   */
  private Map<String, String> mounted(final PodSpec pod, final Map<String, String> kafka)
      throws Exception {
    final Container container = pod.getContainers().get(0);
    final Map<String, String> settings = new HashMap<>(kafka);
    final SelfSignedCertificate ca = SelfSignedCertificate.create(dir.resolve("ca"), "dns:kafka");
    for (final VolumeMount mount : container.getVolumeMounts()) {
      // The engine's state volume comes from a claim template, not from the pod's volumes.
      final Volume volume =
          pod.getVolumes().stream()
              .filter(v -> v.getName().equals(mount.getName()))
              .findFirst()
              .orElse(null);
      if (volume == null || volume.getSecret() == null) {
        continue;
      }
      final Path local = Files.createDirectories(dir.resolve("root" + mount.getMountPath()));
      for (final KeyToPath item : volume.getSecret().getItems()) {
        Files.writeString(
            local.resolve(item.getPath()),
            item.getKey().equals("ca.crt") ? Files.readString(ca.certificate()) : SCRAM);
      }
      settings.replaceAll((key, value) -> value.replace(mount.getMountPath(), local.toString()));
    }
    return settings;
  }

  private static Map<String, String> environment(final PodSpec pod) {
    final Map<String, String> environment = new HashMap<>();
    for (final EnvVar variable : pod.getContainers().get(0).getEnv()) {
      if (variable.getValue() != null) {
        environment.put(variable.getName(), variable.getValue());
      }
    }
    return environment;
  }

  private static String secretOf(final PodSpec pod, final String volumeName) {
    return volume(pod, volumeName).getSecret().getSecretName();
  }

  private static Volume volume(final PodSpec pod, final String name) {
    return pod.getVolumes().stream()
        .filter(volume -> volume.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  private <T extends HasMetadata> T workload(final Class<T> type) {
    return rendered.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
  }

  private static List<HasMetadata> castAll(final List<?> objects) {
    return objects.stream().map(HasMetadata.class::cast).toList();
  }

  private static boolean kubectlRuns() {
    try {
      final Process process =
          new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
      new String(process.getInputStream().readAllBytes(), UTF_8);
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

package io.quotaflow.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Builds Kubernetes clients from a kubeconfig context or the pod's service account. */
public final class KubeClients {

  private KubeClients() {}

  /**
   * A client for one context of a kubeconfig.
   *
   * @param kubeconfig the kubeconfig file; empty for the default ({@code KUBECONFIG} or {@code
   *     ~/.kube/config})
   * @param context the context to use
   * @throws IllegalArgumentException when the given file does not exist
   */
  public static KubernetesClient forContext(final Optional<Path> kubeconfig, final String context) {
    final Config config;
    if (kubeconfig.isPresent()) {
      final Path file = kubeconfig.get();
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("kubeconfig " + file + " is not a readable file");
      }
      config = Config.fromKubeconfig(context, file.toFile());
    } else {
      config = Config.autoConfigure(context);
    }
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /**
   * A client from the environment the process runs in: inside a pod, its service account (when no
   * kubeconfig is present).
   */
  public static KubernetesClient inCluster() {
    return new KubernetesClientBuilder().withConfig(Config.autoConfigure(null)).build();
  }

  /**
   * A second client for the same API server that never retries a request by itself, so the caller
   * controls the backoff (fabric8 retries a 429 ten times over about 19 s by default). The caller
   * closes it.
   */
  public static KubernetesClient withoutRetries(final KubernetesClient client) {
    final Config config =
        new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}

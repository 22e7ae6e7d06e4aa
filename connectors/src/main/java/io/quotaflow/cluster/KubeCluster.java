package io.quotaflow.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One Kubernetes cluster quotaflow connects to: the name every record of it carries, and a client
 * for its API server. The client is owned by whoever built this value; the connectors never close
 * it.
 *
 * @param name the cluster name used in every key (letters, digits, '.', '_' and '-')
 * @param client a client for the cluster's API server
 */
public record KubeCluster(String name, KubernetesClient client) {

  private static final Pattern LEGAL_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /** Validates the name: it ends up in record keys, consumer groups and metric tags. */
  public KubeCluster {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(client, "client");
    if (!LEGAL_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Cluster name '" + name + "' may only contain letters, digits, '.', '_' and '-'");
    }
  }

  @Override
  public String toString() {
    return name;
  }
}

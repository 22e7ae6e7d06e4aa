package io.quotaflow.simulate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small YAML manifests for tests, written as Kubernetes users write them. */
final class Manifests {

  private Manifests() {}

  static String node(String name, String allocatable) {
    return """
        apiVersion: v1
        kind: Node
        metadata: {name: %s}
        status:
          allocatable: %s
          conditions: [{type: Ready, status: "True"}]
        """
        .formatted(name, allocatable);
  }

  /** A leaf under the root, or under {@code parent} when not null. */
  static String quota(String name, String parent, String min, String max) {
    return """
        apiVersion: scheduling.sigs.k8s.io/v1alpha1
        kind: ElasticQuota
        metadata:
          name: %s
          namespace: team
          labels: {quota.scheduling.koordinator.sh/parent: "%s"}
        spec: {min: %s, max: %s}
        """
        .formatted(name, parent == null ? "" : parent, min, max);
  }

  static String parentQuota(String name, String min, String max) {
    return """
        apiVersion: scheduling.sigs.k8s.io/v1alpha1
        kind: ElasticQuota
        metadata:
          name: %s
          namespace: team
          labels: {quota.scheduling.koordinator.sh/is-parent: "true"}
        spec: {min: %s, max: %s}
        """
        .formatted(name, min, max);
  }

  /** A pod of {@code group}, bound to {@code node} and Running, or pending when node is null. */
  static String pod(String name, String group, String node, String requests) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: team
          labels: {quota.scheduling.koordinator.sh/name: %s}
        spec:
          %s
          containers: [{name: app, resources: {requests: %s}}]
        status: {phase: %s}
        """
        .formatted(
            name,
            group,
            node == null ? "priority: 0" : "nodeName: " + node,
            requests,
            node == null ? "Pending" : "Running");
  }

  static String documents(String... documents) {
    return String.join("---\n", documents);
  }

  static Path write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      return Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

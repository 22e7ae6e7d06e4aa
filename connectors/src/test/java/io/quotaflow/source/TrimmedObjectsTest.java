package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.TopicCatalogue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.3: the informers keep trimmed pods and nodes; a trimmed object must make exactly the
 * record its full object makes. The pods carry every field the records read (labels, the quota and
 * preemptible labels, each gang convention, min-available, priority, node, phase, start and
 * deletion times, containers, sidecars, init containers, pod-level resources, overhead, DRA claims
 * and their statuses, unreadable quantities) beside what a real pod also carries (managedFields,
 * env, volumes, probes, conditions, container statuses, last-applied-configuration).
 */
class TrimmedObjectsTest {

  private static final TopicCatalogue TOPICS = TopicCatalogue.withDefaultPrefix();
  private static final PodKind PODS = new PodKind(TOPICS.pods());
  private static final NodeKind NODES = new NodeKind(TOPICS.nodes());
  private static final String CLUSTER = "east";

  @Test
  void everyPodMakesTheSameRecordTrimmed() {
    for (final String json :
        List.of(
            KOORDINATOR_POD,
            VOLCANO_POD,
            SCHEDULER_PLUGINS_POD,
            UNREADABLE_POD,
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bare\"}}",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}")) {
      final Pod full = Serialization.unmarshal(json, Pod.class);
      final Pod trimmed = TrimmedObjects.pod(Serialization.unmarshal(json, Pod.class));

      final SourceRecord<PodKey, PodState> expected = PODS.map(CLUSTER, full);
      assertThat(PODS.map(CLUSTER, trimmed)).as(json).isEqualTo(expected);
    }
  }

  @Test
  void trimmedPodsLeaveOutWhatNoRecordReads() {
    final Pod full = Serialization.unmarshal(KOORDINATOR_POD, Pod.class);
    final Pod trimmed = TrimmedObjects.pod(full);

    assertThat(trimmed.getMetadata().getManagedFields()).isEmpty();
    assertThat(trimmed.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(trimmed.getMetadata().getAnnotations())
        .containsOnlyKeys(
            "gang.scheduling.koordinator.sh/name", "gang.scheduling.koordinator.sh/min-available");
    assertThat(trimmed.getSpec().getVolumes()).isEmpty();
    assertThat(trimmed.getSpec().getContainers().get(0).getEnv()).isEmpty();
    assertThat(trimmed.getStatus().getConditions()).isEmpty();
    assertThat(trimmed.getStatus().getContainerStatuses()).isEmpty();
    assertThat(trimmed.getMetadata().getResourceVersion()).isEqualTo("81234");
    assertThat(Serialization.asJson(trimmed).length())
        .isLessThan(Serialization.asJson(full).length() / 2);
  }

  @Test
  void everyNodeMakesTheSameRecordTrimmed() {
    for (final String json :
        List.of(
            NODE,
            NODE.replace("\"unschedulable\": false", "\"unschedulable\": true")
                .replace(
                    "\"status\": \"True\", \"type\": \"Ready\"",
                    "\"status\": \"False\", \"type\": \"Ready\"")
                .replace("\"uid\":", "\"deletionTimestamp\": \"2026-01-02T00:00:00Z\", \"uid\":"),
            NODE.replace("\"cpu\": \"15890m\"", "\"cpu\": \"lots\""),
            "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"bare\"}}")) {
      final Node full = Serialization.unmarshal(json, Node.class);
      final Node trimmed = TrimmedObjects.node(Serialization.unmarshal(json, Node.class));

      final SourceRecord<NodeKey, NodeState> expected = NODES.map(CLUSTER, full);
      assertThat(NODES.map(CLUSTER, trimmed)).as(json).isEqualTo(expected);
      assertThat(trimmed.getStatus() == null ? List.of() : trimmed.getStatus().getImages())
          .isEmpty();
    }
  }

  private static final String KOORDINATOR_POD =
      """
      {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
          "name": "trainer-7d9f8b6c5d-x2x9k", "namespace": "team-a", "uid": "0b5c7e0e-1",
          "resourceVersion": "81234", "generateName": "trainer-7d9f8b6c5d-",
          "creationTimestamp": "2026-01-01T10:00:00Z",
          "deletionTimestamp": "2026-01-01T12:00:00Z", "deletionGracePeriodSeconds": 30,
          "labels": {
            "app": "trainer", "pod-template-hash": "7d9f8b6c5d",
            "quota.scheduling.koordinator.sh/name": "team-a-gpu",
            "quota.scheduling.koordinator.sh/preemptible": "false"
          },
          "annotations": {
            "gang.scheduling.koordinator.sh/name": "trainers",
            "gang.scheduling.koordinator.sh/min-available": "4",
            "kubectl.kubernetes.io/last-applied-configuration": "{\\"big\\": \\"blob\\"}",
            "prometheus.io/scrape": "true"
          },
          "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "name": "trainer-7d9f8b6c5d", "uid": "rs-1", "controller": true}],
          "finalizers": ["example.com/hold"],
          "managedFields": [{"manager": "kube-controller-manager", "operation": "Update",
            "apiVersion": "v1", "time": "2026-01-01T10:00:00Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}}}}]
        },
        "spec": {
          "nodeName": "node-17", "priority": 1000, "priorityClassName": "high",
          "schedulerName": "koord-scheduler", "serviceAccountName": "trainer",
          "overhead": {"cpu": "250m", "memory": "120Mi"},
          "resourceClaims": [
            {"name": "gpu", "resourceClaimTemplateName": "one-gpu"},
            {"name": "nic", "resourceClaimName": "shared-nic"}
          ],
          "initContainers": [
            {"name": "setup", "image": "busybox", "resources": {"requests": {"cpu": "2"}}},
            {"name": "proxy", "image": "envoy", "restartPolicy": "Always",
             "resources": {"requests": {"cpu": "500m", "memory": "64Mi"}}}
          ],
          "containers": [
            {"name": "main", "image": "trainer:1.2",
             "env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom":
               {"fieldRef": {"fieldPath": "metadata.name"}}}],
             "ports": [{"containerPort": 8080}],
             "volumeMounts": [{"name": "data", "mountPath": "/data"}],
             "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}},
             "resources": {"requests": {"cpu": "1", "memory": "2Gi"},
                           "limits": {"cpu": "2", "memory": "2Gi", "nvidia.com/gpu": "1"}}},
            {"name": "logger", "image": "fluent-bit",
             "resources": {"limits": {"cpu": "100m", "memory": "50Mi"}}}
          ],
          "volumes": [{"name": "data", "emptyDir": {}},
            {"name": "token", "projected": {"sources": [{"serviceAccountToken":
              {"path": "token", "expirationSeconds": 3607}}]}}],
          "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
            "effect": "NoExecute", "tolerationSeconds": 300}]
        },
        "status": {
          "phase": "Running", "startTime": "2026-01-01T10:00:05Z", "podIP": "10.0.0.7",
          "qosClass": "Burstable",
          "conditions": [{"type": "Ready", "status": "True",
            "lastTransitionTime": "2026-01-01T10:00:09Z"}],
          "containerStatuses": [{"name": "main", "ready": true, "restartCount": 0,
            "image": "trainer:1.2", "imageID": "sha256:1", "containerID": "containerd://1",
            "state": {"running": {"startedAt": "2026-01-01T10:00:08Z"}}}],
          "resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "trainer-x2x9k-gpu"}]
        }
      }
      """;

  private static final String VOLCANO_POD =
      """
      {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "job-0", "namespace": "ml", "uid": "u-2", "resourceVersion": "9",
          "creationTimestamp": "2026-01-01T10:00:00Z",
          "annotations": {"scheduling.k8s.io/group-name": "job", "other": "x"}},
        "spec": {"priority": -5, "resources": {"requests": {"cpu": "3", "memory": "1Gi"}},
          "containers": [{"name": "c", "resources": {"requests": {"cpu": "8"}}}]},
        "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
          "reason": "Unschedulable"}]}
      }
      """;

  private static final String SCHEDULER_PLUGINS_POD =
      """
      {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "w-1", "uid": "u-3", "resourceVersion": "10",
          "creationTimestamp": "2026-01-01T10:00:00Z",
          "labels": {"scheduling.x-k8s.io/pod-group": "workers",
            "quota.scheduling.koordinator.sh/preemptible": "true"},
          "annotations": {"gang.scheduling.koordinator.sh/name": "clash"}},
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]},
        "status": {"phase": "Succeeded", "startTime": "2026-01-01T10:00:01Z"}
      }
      """;

  private static final String UNREADABLE_POD =
      """
      {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "odd", "namespace": "team-b", "uid": "u-4", "resourceVersion": "11",
          "creationTimestamp": "not-a-time",
          "annotations": {"gang.scheduling.koordinator.sh/name": "g",
            "gang.scheduling.koordinator.sh/min-available": "many"}},
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "lots",
          "memory": "1Gi"}}}], "overhead": {"memory": "??"}},
        "status": {"phase": "Weird", "startTime": "also-not-a-time"}
      }
      """;

  private static final String NODE =
      """
      {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "node-17", "uid": "n-17", "resourceVersion": "500",
          "labels": {"kubernetes.io/hostname": "node-17", "topology.kubernetes.io/zone": "a",
            "node.kubernetes.io/instance-type": "m5.4xlarge"},
          "annotations": {"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/x": "y"},
          "managedFields": [{"manager": "kubelet", "operation": "Update", "apiVersion": "v1"}]},
        "spec": {"podCIDR": "10.0.17.0/24", "providerID": "aws:///a/i-17",
          "unschedulable": false, "taints": [{"key": "k", "effect": "NoSchedule"}]},
        "status": {
          "capacity": {"cpu": "16", "memory": "64Gi", "pods": "110"},
          "allocatable": {"cpu": "15890m", "memory": "62Gi", "pods": "110",
            "nvidia.com/gpu": "4"},
          "conditions": [
            {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory"},
            {"status": "True", "type": "Ready", "reason": "KubeletReady",
             "message": "kubelet is posting ready status"}],
          "addresses": [{"type": "InternalIP", "address": "10.0.0.17"}],
          "images": [{"names": ["registry/a@sha256:1", "registry/a:1"], "sizeBytes": 123}],
          "nodeInfo": {"kubeletVersion": "v1.33.0", "osImage": "Ubuntu"}
        }
      }
      """;
}

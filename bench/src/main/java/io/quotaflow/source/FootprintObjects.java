package io.quotaflow.source;

/**
 * A Deployment's pod and a node as {@code kubectl get -o json} shows them (about 7 KB and 5 KB),
 * numbered so that each is its own object, for {@link ConnectorsFootprint}.
 */
final class FootprintObjects {

  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-7d9f8b6c5d-%1$d",
      "namespace":"team-%2$d","uid":"6f1d2c3b-0000-4000-8000-%1$012d","resourceVersion":"%1$d",
      "generateName":"web-7d9f8b6c5d-","creationTimestamp":"2026-01-01T10:00:00Z",
      "labels":{"app":"web","pod-template-hash":"7d9f8b6c5d","tier":"frontend",
      "quota.scheduling.koordinator.sh/name":"team-%2$d"},
      "annotations":{"kubectl.kubernetes.io/restartedAt":"2026-01-01T09:59:00Z",
      "prometheus.io/scrape":"true","prometheus.io/port":"9090"},
      "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d9f8b6c5d",
      "uid":"0a1b2c3d-0000-4000-8000-000000000001","controller":true,"blockOwnerDeletion":true}],
      "managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1",
      "time":"2026-01-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{
      "f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},
      "f:ownerReferences":{".":{},"k:{\\"uid\\":\\"0a1b2c3d\\"}":{}}},"f:spec":{"f:containers":{
      "k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{".":{},"k:{\\"name\\":\\"LOG_LEVEL\\"}":{".":{},
      "f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{},
      "f:resources":{".":{},"f:limits":{},"f:requests":{}},"f:terminationMessagePath":{},
      "f:volumeMounts":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},
      "f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{},
      "f:volumes":{}}}},{"manager":"kubelet","operation":"Update","apiVersion":"v1",
      "time":"2026-01-01T10:00:09Z","fieldsType":"FieldsV1","subresource":"status","fieldsV1":{
      "f:status":{"f:conditions":{"k:{\\"type\\":\\"ContainersReady\\"}":{".":{},
      "f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},
      "k:{\\"type\\":\\"Initialized\\"}":{".":{},"f:lastTransitionTime":{},"f:status":{},
      "f:type":{}},"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastTransitionTime":{},"f:status":{},
      "f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},
      "f:podIPs":{},"f:startTime":{}}}}]},
      "spec":{"nodeName":"node-%3$d","priority":0,"schedulerName":"default-scheduler",
      "serviceAccountName":"web","restartPolicy":"Always","dnsPolicy":"ClusterFirst",
      "terminationGracePeriodSeconds":30,"enableServiceLinks":true,"preemptionPolicy":
      "PreemptLowerPriority","securityContext":{"runAsNonRoot":true,"fsGroup":2000},
      "containers":[%4$s,%5$s,%6$s],
      "volumes":[{"name":"config","configMap":{"name":"web-config","defaultMode":420}},
      {"name":"cache","emptyDir":{"sizeLimit":"1Gi"}},{"name":"kube-api-access-x7k2p",
      "projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,
      "path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt",
      "path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{
      "apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}]}}],
      "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists",
      "effect":"NoExecute","tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable",
      "operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},
      "status":{"phase":"Running","hostIP":"10.0.%7$d.%8$d","podIP":"10.244.%7$d.%8$d",
      "podIPs":[{"ip":"10.244.%7$d.%8$d"}],"qosClass":"Burstable",
      "startTime":"2026-01-01T10:00:01Z","conditions":[
      {"type":"PodReadyToStartContainers","status":"True","lastTransitionTime":"2026-01-01T10:00:03Z"},
      {"type":"Initialized","status":"True","lastTransitionTime":"2026-01-01T10:00:01Z"},
      {"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T10:00:09Z"},
      {"type":"ContainersReady","status":"True","lastTransitionTime":"2026-01-01T10:00:09Z"},
      {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-01-01T10:00:00Z"}],
      "containerStatuses":[%9$s,%10$s,%11$s]}}
      """
          .replace("\n", "");

  private static final String CONTAINER =
      """
      {"name":"%1$s","image":"registry.example.com/team/%1$s:1.24.3","imagePullPolicy":"IfNotPresent",
      "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
      "env":[{"name":"LOG_LEVEL","value":"info"},{"name":"POD_NAME","valueFrom":{"fieldRef":{
      "apiVersion":"v1","fieldPath":"metadata.name"}}},{"name":"POD_IP","valueFrom":{"fieldRef":{
      "apiVersion":"v1","fieldPath":"status.podIP"}}},{"name":"JAVA_OPTS","value":
      "-XX:MaxRAMPercentage=75 -XX:+UseG1GC"},{"name":"FEATURE_FLAGS","value":"a,b,c,d,e"}],
      "resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"cpu":"1",
      "memory":"512Mi"}},"volumeMounts":[{"name":"config","mountPath":"/etc/app"},
      {"name":"cache","mountPath":"/cache"},{"name":"kube-api-access-x7k2p",
      "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","readOnly":true}],
      "readinessProbe":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTP"},
      "periodSeconds":10,"timeoutSeconds":1,"successThreshold":1,"failureThreshold":3},
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}
      """
          .replace("\n", "");

  private static final String STATUS =
      """
      {"name":"%1$s","ready":true,"started":true,"restartCount":0,
      "image":"registry.example.com/team/%1$s:1.24.3","imageID":
      "registry.example.com/team/%1$s@sha256:4f1c0a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f",
      "containerID":"containerd://%2$064d","state":{"running":{"startedAt":"2026-01-01T10:00:08Z"}},
      "lastState":{}}
      """
          .replace("\n", "");

  private static final String NODE =
      """
      {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-%1$d",
      "uid":"9e8d7c6b-0000-4000-8000-%1$012d","resourceVersion":"%1$d",
      "creationTimestamp":"2025-12-01T00:00:00Z","labels":{"kubernetes.io/hostname":"node-%1$d",
      "kubernetes.io/os":"linux","kubernetes.io/arch":"amd64","node.kubernetes.io/instance-type":
      "m5.4xlarge","topology.kubernetes.io/zone":"zone-%2$d","topology.kubernetes.io/region":"r1"},
      "annotations":{"node.alpha.kubernetes.io/ttl":"0","volumes.kubernetes.io/controller-managed-attach-detach":"true"},
      "managedFields":[{"manager":"kubelet","operation":"Update","apiVersion":"v1",
      "time":"2026-01-01T10:00:00Z","fieldsType":"FieldsV1","subresource":"status","fieldsV1":{
      "f:status":{"f:allocatable":{},"f:capacity":{},"f:conditions":{},"f:images":{},
      "f:nodeInfo":{}}}}]},"spec":{"podCIDR":"10.244.%2$d.0/24","providerID":"aws:///zone/i-%1$d"},
      "status":{"capacity":{"cpu":"16","memory":"65023388Ki","pods":"110","ephemeral-storage":"104845292Ki"},
      "allocatable":{"cpu":"15890m","memory":"62148124Ki","pods":"110","ephemeral-storage":"96625420948"},
      "conditions":[{"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory",
      "message":"kubelet has sufficient memory available","lastHeartbeatTime":"2026-01-01T10:00:00Z",
      "lastTransitionTime":"2025-12-01T00:00:00Z"},{"type":"DiskPressure","status":"False",
      "reason":"KubeletHasNoDiskPressure","message":"kubelet has no disk pressure",
      "lastHeartbeatTime":"2026-01-01T10:00:00Z","lastTransitionTime":"2025-12-01T00:00:00Z"},
      {"type":"PIDPressure","status":"False","reason":"KubeletHasSufficientPID",
      "message":"kubelet has sufficient PID available","lastHeartbeatTime":"2026-01-01T10:00:00Z",
      "lastTransitionTime":"2025-12-01T00:00:00Z"},{"type":"Ready","status":"True",
      "reason":"KubeletReady","message":"kubelet is posting ready status",
      "lastHeartbeatTime":"2026-01-01T10:00:00Z","lastTransitionTime":"2025-12-01T00:00:00Z"}],
      "addresses":[{"type":"InternalIP","address":"10.0.%2$d.%3$d"},{"type":"Hostname",
      "address":"node-%1$d"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},
      "nodeInfo":{"machineID":"ec2%1$029d","systemUUID":"ec2%1$029d","bootID":"b%1$031d",
      "kernelVersion":"6.1.0","osImage":"Amazon Linux 2023","containerRuntimeVersion":
      "containerd://1.7.11","kubeletVersion":"v1.33.0","kubeProxyVersion":"v1.33.0",
      "operatingSystem":"linux","architecture":"amd64"},"images":[%4$s]}}
      """
          .replace("\n", "");

  private FootprintObjects() {}

  static String pod(final int i, final int nodes) {
    return String.format(
        POD,
        i,
        i % 200,
        i % Math.max(1, nodes),
        String.format(CONTAINER, "app"),
        String.format(CONTAINER, "sidecar"),
        String.format(CONTAINER, "metrics"),
        (i >> 8) & 255,
        i & 255,
        String.format(STATUS, "app", i),
        String.format(STATUS, "sidecar", i),
        String.format(STATUS, "metrics", i));
  }

  static String node(final int i) {
    final StringBuilder images = new StringBuilder();
    for (int image = 0; image < 12; image++) {
      if (image > 0) {
        images.append(',');
      }
      images.append(
          String.format(
              "{\"names\":[\"registry.example.com/team/image-%1$d@sha256:%2$064d\","
                  + "\"registry.example.com/team/image-%1$d:1.%1$d\"],\"sizeBytes\":%3$d}",
              image, image, 100_000_000 + image));
    }
    return String.format(NODE, i, i % 250, i & 255, images);
  }
}

package io.quotaflow.kubernetes;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.peers.ForwardPolicy;
import io.quotaflow.admission.http.tls.ClientCertificates;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.connect.ConnectConfig;
import io.quotaflow.connect.ConnectSettings;
import io.quotaflow.connect.LeaderElectionSettings;
import io.quotaflow.connect.MetricsEndpoint;
import io.quotaflow.connect.StatusWriterSettings;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.UnmappedClasses;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.memory.MemoryFit;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.status.StatusMode;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests of {@code deploy/kubernetes}, parsed with fabric8, checked against what
 * the code serves and calls: the admission plugin's port, probe and webhook paths (asked of a
 * running admission server, not copied), the connectors' metrics port, probe and scrape paths
 * (asked of a running metrics endpoint), the cluster name the connectors put on records, the
 * certificate's names, and RBAC against the connectors' documented API calls.
 */
class ManifestWiringTest {

  private static final Path KUBERNETES = Path.of("kubernetes");
  private static final Path BASE = KUBERNETES.resolve("base");
  private static final Path SHADOW = KUBERNETES.resolve("overlays/shadow");
  private static final Path CONNECTORS_DOC = Path.of("..", "docs", "connectors.md");
  // Strict as kubectl: a key repeated in a shipped file is an error here, not the last one winning.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
  private static final KubernetesSerialization KUBERNETES_JSON = new KubernetesSerialization();
  private static final String HTTPS_PORT_NAME = "https";
  private static final String HEALTH_PORT_NAME = "health";
  private static final String METRICS_PORT_NAME = "metrics";

  private final List<HasMetadata> base = loadAll(BASE);

  @Test
  void everyManifestIsListedInItsKustomizationAndParses() throws IOException {
    for (final Path dir :
        List.of(
            BASE,
            KUBERNETES.resolve("components/elasticquota-crd"),
            KUBERNETES.resolve("components/client-certificates"),
            KUBERNETES.resolve("components/quota-admins-policy"),
            KUBERNETES.resolve("overlays/dev"),
            KUBERNETES.resolve("overlays/production"),
            SHADOW)) {
      final JsonNode kustomization = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
      final Set<String> listed = new TreeSet<>();
      kustomization.path("resources").forEach(node -> listed.add(node.asText()));
      kustomization.path("patches").forEach(node -> listed.add(node.path("path").asText()));
      final Set<String> files = new TreeSet<>();
      try (Stream<Path> list = Files.list(dir)) {
        list.map(file -> file.getFileName().toString())
            .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml"))
            .forEach(files::add);
      }
      assertThat(listed).as("files of %s", dir).containsAll(files);
      for (final String file : files) {
        assertThat(load(dir.resolve(file))).as(file).isNotEmpty();
      }
    }
    assertThat(base)
        .extracting(HasMetadata::getKind)
        .contains(
            "Namespace",
            "StatefulSet",
            "Deployment",
            "ClusterRole",
            "ClusterRoleBinding",
            "Service",
            "Certificate",
            "Issuer",
            "ValidatingWebhookConfiguration")
        .as("the CRD is an optional component (ElasticQuotaCrdTest)")
        .doesNotContain("CustomResourceDefinition");
  }

  @Test
  void everyContainerWithAReadOnlyRootHasAWritableTmpForNativeLibraries() {
    // RocksDB and the Kafka clients' codecs unpack their native libraries to java.io.tmpdir.
    final List<PodSpec> pods =
        List.of(
            one(StatefulSet.class).getSpec().getTemplate().getSpec(),
            one(Deployment.class).getSpec().getTemplate().getSpec());
    for (final PodSpec pod : pods) {
      for (final Container container : pod.getContainers()) {
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
            .as(container.getName())
            .isTrue();
        final VolumeMount tmp =
            container.getVolumeMounts().stream()
                .filter(mount -> mount.getMountPath().equals("/tmp"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " mounts no /tmp"));
        assertThat(pod.getVolumes())
            .filteredOn(volume -> volume.getName().equals(tmp.getName()))
            .singleElement()
            .satisfies(volume -> assertThat(volume.getEmptyDir()).isNotNull());
      }
    }
  }

  @Test
  void theEngineListensProbesAndNamesItselfOnThePluginsPort() throws IOException {
    final PluginConfig plugin = PluginSettings.config(engineProperties());
    final StatefulSet engine = one(StatefulSet.class);
    final Container container = engine.getSpec().getTemplate().getSpec().getContainers().get(0);

    final int metricsPort =
        EngineConfig.builder().setAll(engineProperties()).build().get(EngineSettings.METRICS_PORT);
    final ServerLimits limits = PluginSettings.limits(engineProperties());
    assertThat(limits.healthPort()).as("admission.health.port").isPresent();
    assertThat(container.getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactlyInAnyOrder(
            tuple(HTTPS_PORT_NAME, plugin.port()),
            tuple(METRICS_PORT_NAME, metricsPort),
            tuple(HEALTH_PORT_NAME, limits.healthPort().getAsInt()));
    // The probes use the port that serves nothing but health, so a flood of 8443 cannot fail them.
    for (final Probe probe :
        List.of(
            container.getStartupProbe(),
            container.getLivenessProbe(),
            container.getReadinessProbe())) {
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo(HEALTH_PORT_NAME);
      assertThat(probe.getHttpGet().getScheme()).isNull();
    }
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(env(container, "QUOTAFLOW_KAFKA_APPLICATION_SERVER"))
        .isEqualTo(
            "$(POD_NAME)."
                + engine.getSpec().getServiceName()
                + ".$(POD_NAMESPACE).svc:"
                + plugin.port());
    // Prometheus scrapes the plain-HTTP metrics port; the plugin's HTTPS port serves the API.
    assertThat(engine.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("prometheus.io/scheme", "http")
        .containsEntry("prometheus.io/port", Integer.toString(metricsPort))
        .containsEntry("prometheus.io/path", "/metrics");
    for (final Service service : all(Service.class)) {
      assertThat(service.getSpec().getSelector())
          .isEqualTo(engine.getSpec().getSelector().getMatchLabels());
      final ServicePort port = service.getSpec().getPorts().get(0);
      assertThat(port.getPort()).isEqualTo(plugin.port());
      assertThat(port.getTargetPort().getStrVal()).isEqualTo(HTTPS_PORT_NAME);
    }
    assertThat(service(engine.getSpec().getServiceName()).getSpec().getClusterIP())
        .isEqualTo("None");
  }

  @Test
  void theEngineFitsItsMemoryLimitWithItsHistoryOffTheHeap() throws IOException {
    final Container container =
        one(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    final long limit =
        Quantity.getAmountInBytes(container.getResources().getLimits().get("memory"))
            .longValueExact();
    final Matcher percentage =
        Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(env(container, "JAVA_TOOL_OPTIONS"));
    assertThat(percentage.find()).as("JAVA_TOOL_OPTIONS sets MaxRAMPercentage").isTrue();
    final long heap = limit * Long.parseLong(percentage.group(1)) / 100;
    final EngineConfig config = EngineConfig.builder().setAll(engineProperties()).build();

    final MemoryFit fit = MemoryFit.of(config, heap, OptionalLong.of(limit));

    // The history grows with time: in RocksDB, under rocksdb.memory, never on the heap.
    assertThat(config.get(EngineSettings.HISTORY_STORES)).isEqualTo(StoreKind.ROCKSDB);
    assertThat(fit.historyCost()).isEmpty();
    assertThat(fit.fits()).as(fit.arithmetic()).isTrue();
    for (final String overlay : List.of("dev", "shadow", "production")) {
      assertThat(engineProperties(KUBERNETES.resolve("overlays").resolve(overlay)))
          .as(overlay)
          .containsEntry(EngineSettings.HISTORY_STORES.key(), "rocksdb");
    }
  }

  @Test
  void theConnectorsHeapHoldsAHundredThousandPodsWithRoomToSpare() {
    // Measured by bench/run-connectors-footprint.sh: 766 MiB live after the first snapshot of
    // 100,000 pods and 10,000 nodes (docs/PERFORMANCE.md); half as much again for the lists' pages
    // and the garbage between collections.
    final long measuredLive = 766L * 1024 * 1024;
    final Container container =
        one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    final long limit =
        Quantity.getAmountInBytes(container.getResources().getLimits().get("memory"))
            .longValueExact();
    final Matcher percentage =
        Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(env(container, "JAVA_TOOL_OPTIONS"));
    assertThat(percentage.find()).as("JAVA_TOOL_OPTIONS sets MaxRAMPercentage").isTrue();

    assertThat(limit * Long.parseLong(percentage.group(1)) / 100)
        .as("the connectors' heap")
        .isGreaterThanOrEqualTo(measuredLive * 3 / 2);
  }

  @Test
  void theConnectorsExposeTheirMetricsPortForScrapingAndProbing() throws Exception {
    final Deployment connectors = one(Deployment.class);
    final Container container = connectors.getSpec().getTemplate().getSpec().getContainers().get(0);
    final Map<String, String> environment = new HashMap<>();
    container.getEnv().stream()
        .filter(variable -> variable.getValue() != null)
        .forEach(variable -> environment.put(variable.getName(), variable.getValue()));
    final int port =
        ConnectConfig.builder().environment(environment).build().get(ConnectSettings.METRICS_PORT);

    assertThat(container.getPorts())
        .singleElement()
        .satisfies(
            containerPort -> {
              assertThat(containerPort.getName()).isEqualTo(METRICS_PORT_NAME);
              assertThat(containerPort.getContainerPort()).isEqualTo(port);
            });
    final Map<String, String> annotations =
        connectors.getSpec().getTemplate().getMetadata().getAnnotations();
    assertThat(annotations)
        .containsEntry("prometheus.io/scrape", "true")
        .containsEntry("prometheus.io/scheme", "http")
        .containsEntry("prometheus.io/port", Integer.toString(port))
        .containsEntry("prometheus.io/path", "/metrics");
    final List<String> gets = new ArrayList<>(List.of(annotations.get("prometheus.io/path")));
    for (final Probe probe : List.of(container.getLivenessProbe(), container.getReadinessProbe())) {
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo(METRICS_PORT_NAME);
      assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTP");
      gets.add(probe.getHttpGet().getPath());
    }

    // The paths are asked of a running endpoint, not copied from the code.
    try (MetricsEndpoint endpoint =
        MetricsEndpoint.start(0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
      final HttpClient http = HttpClient.newHttpClient();
      for (final String path : gets) {
        final HttpRequest request =
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + endpoint.address().getPort() + path))
                .build();
        assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
            .as("GET %s", path)
            .isEqualTo(200);
      }
    }
  }

  @Test
  void theEngineChargesNvidiasGpuClassAsGpusAndTheSettingReadsWhole() throws IOException {
    final DeviceClassMappings mappings =
        EngineConfig.builder().setAll(engineProperties()).build().get(QuotaSettings.DEVICE_CLASSES);

    assertThat(engineProperties()).containsKey(QuotaSettings.DEVICE_CLASSES.key());
    // Issue 39: a class no entry names is never free; the manifests say so explicitly.
    assertThat(engineProperties())
        .containsEntry(QuotaSettings.DEVICE_UNMAPPED_CLASS.key(), UnmappedClasses.DENY_SETTING);
    assertThat(EngineConfig.builder().setAll(engineProperties()).build().deviceClasses().unmapped())
        .isEqualTo(UnmappedClasses.DENY);
    assertThat(mappings.find("gpu.nvidia.com"))
        .hasValueSatisfying(
            mapping -> {
              assertThat(mapping.resource()).isEqualTo("nvidia.com/gpu");
              assertThat(mapping.perDevice()).isEqualTo(1);
            });
  }

  @Test
  void infrastructureIsProtectedFromReclaimAndEvictionInEveryOverlay() throws IOException {
    // Issue 39: quotaflow must not evict what it runs on, nor the default group's strays.
    final List<String> infrastructure =
        List.of(
            "kube-system",
            "quotaflow",
            "kafka",
            "strimzi",
            "strimzi-system",
            "cert-manager",
            "koordinator-system",
            "monitoring");
    final List<Path> configured =
        List.of(
            BASE,
            KUBERNETES.resolve("overlays/dev"),
            KUBERNETES.resolve("overlays/production"),
            SHADOW);
    for (final Path dir : configured) {
      final EngineConfig config = EngineConfig.builder().setAll(engineProperties(dir)).build();
      assertThat(config.get(EngineSettings.RECLAIM_PROTECTED_NAMESPACES))
          .as("%s reclaim.protected.namespaces", dir)
          .containsAll(infrastructure);
      assertThat(config.get(EngineSettings.RECLAIM_DEFAULT_GROUP_ENABLED))
          .as("%s reclaim.default.group.enabled", dir)
          .isFalse();
      assertThat(config.quotaOptions().protectedPods().defaultGroupReclaimed()).isFalse();
    }

    final Container connectors =
        one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    final Map<String, String> environment = new HashMap<>();
    connectors.getEnv().stream()
        .filter(variable -> variable.getValue() != null)
        .forEach(variable -> environment.put(variable.getName(), variable.getValue()));
    assertThat(environment)
        .containsKey(ConnectSettings.EVICTION_PROTECTED_NAMESPACES.environmentName());
    assertThat(
            ConnectConfig.builder()
                .environment(environment)
                .build()
                .get(ConnectSettings.EVICTION_PROTECTED_NAMESPACES))
        .as("eviction.protected.namespaces")
        .containsAll(infrastructure);
  }

  @Test
  void theEngineReadsItsConfigurationAndCertificateFromMountedVolumes() throws IOException {
    final PluginConfig plugin = PluginSettings.config(engineProperties());
    final StatefulSet engine = one(StatefulSet.class);
    final Container container = engine.getSpec().getTemplate().getSpec().getContainers().get(0);
    final Map<String, String> mounts = new HashMap<>();
    container.getVolumeMounts().forEach(mount -> mounts.put(mount.getName(), mount.getMountPath()));

    final PluginConfig.TlsFiles tls = plugin.tls().orElseThrow();
    assertThat(tls.certificate().getParent().toString()).isEqualTo(mounts.get("tls"));
    assertThat(tls.key().getParent().toString()).isEqualTo(mounts.get("tls"));
    assertThat(container.getArgs())
        .contains("--config=" + mounts.get("config") + "/engine.properties")
        .anyMatch(arg -> arg.startsWith("--state-dir=" + mounts.get("state")));
    final String secret =
        engine.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(volume -> volume.getName().equals("tls"))
            .findFirst()
            .orElseThrow()
            .getSecret()
            .getSecretName();
    assertThat(certificate("quotaflow-admission").path("spec").path("secretName").asText())
        .isEqualTo(secret);
  }

  @Test
  void probeAndWebhookPathsAreServedByTheAdmissionServer() throws Exception {
    final String cluster = connectorsClusterName();
    final List<String> posts = new ArrayList<>();
    for (final ValidatingWebhook webhook : webhooks()) {
      posts.add(webhook.getClientConfig().getService().getPath());
    }
    final JsonNode extender = schedulerExtender();
    posts.add(
        URI.create(extender.path("urlPrefix").asText()).getPath()
            + "/"
            + extender.path("filterVerb").asText());
    assertThat(posts).allMatch(path -> path.startsWith("/clusters/" + cluster + "/"));

    final Container container =
        one(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    final List<String> gets =
        List.of(
            container.getLivenessProbe().getHttpGet().getPath(),
            container.getReadinessProbe().getHttpGet().getPath(),
            container.getStartupProbe().getHttpGet().getPath(),
            one(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("prometheus.io/path"));

    final SnapshotClusterState state =
        new SnapshotClusterState()
            .put(
                cluster, new ClusterInputs(List.of(), List.of(), List.of()), QuotaOptions.DEFAULTS);
    try (AdmissionServer server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start()) {
      final HttpClient http = HttpClient.newHttpClient();
      for (final String path : gets) {
        assertThat(call(http, server, path, null).statusCode()).as("GET %s", path).isEqualTo(200);
      }
      for (final String path : posts) {
        // An empty object is no valid request: a route that exists answers 400, not 404 or 405.
        final HttpResponse<String> response = call(http, server, path, "{}");
        assertThat(response.statusCode()).as("POST %s: %s", path, response.body()).isEqualTo(400);
      }
      assertThat(call(http, server, "/clusters/" + cluster + "/no-such", "{}").statusCode())
          .as("the check can fail")
          .isEqualTo(404);
    }
  }

  /**
   * Issue 40.10: a review for a cluster whose owner is dead is still answered by quotaflow within
   * the webhook's timeout: forwarding has at most a quarter of it, and every task has a standby
   * replica on another instance to answer from.
   */
  @Test
  void forwardingLeavesMostOfTheWebhooksTimeoutAndEveryTaskHasAStandby() throws IOException {
    final ValidatingWebhookConfiguration configuration = one(ValidatingWebhookConfiguration.class);
    for (final Path dir :
        List.of(
            BASE,
            KUBERNETES.resolve("overlays/dev"),
            KUBERNETES.resolve("overlays/production"),
            SHADOW)) {
      final ForwardPolicy forwarding = PluginSettings.forwarding(engineProperties(dir));
      assertThat(configuration.getWebhooks())
          .allSatisfy(
              webhook ->
                  assertThat(forwarding.timeout().multipliedBy(4))
                      .as("%s: admission.forward.timeout against %s", dir, webhook.getName())
                      .isLessThanOrEqualTo(Duration.ofSeconds(webhook.getTimeoutSeconds())));
      assertThat(forwarding.failuresToOpen()).as("%s", dir).isBetween(1, 10);
    }
    assertThat(
            Integer.parseInt(
                engineProperties(KUBERNETES.resolve("overlays/production"))
                    .getOrDefault("num.standby.replicas", "0")))
        .as("production: num.standby.replicas")
        .isGreaterThanOrEqualTo(1);
    assertThat(Integer.parseInt(engineProperties().getOrDefault("num.standby.replicas", "0")))
        .as("num.standby.replicas: a dead owner's clusters are answered from the standby's copy")
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void webhooksCallTheAdmissionServiceWithAnExplicitPolicy() throws IOException {
    final Properties properties = new Properties();
    properties.putAll(engineProperties());
    final PluginConfig plugin = PluginSettings.config(engineProperties());
    final String namespace = kustomizationNamespace();
    final ValidatingWebhookConfiguration configuration = one(ValidatingWebhookConfiguration.class);
    assertThat(configuration.getMetadata().getAnnotations())
        .containsEntry("cert-manager.io/inject-ca-from", namespace + "/quotaflow-admission");

    for (final ValidatingWebhook webhook : configuration.getWebhooks()) {
      final Service service = service(webhook.getClientConfig().getService().getName());
      assertThat(webhook.getClientConfig().getService().getNamespace()).isEqualTo(namespace);
      assertThat(webhook.getClientConfig().getService().getPort())
          .isEqualTo(service.getSpec().getPorts().get(0).getPort());
      assertThat(webhook.getTimeoutSeconds()).isEqualTo(2);
      assertThat(webhook.getFailurePolicy()).isIn("Ignore", "Fail");
      assertThat(webhook.getSideEffects()).isIn("None", "NoneOnDryRun");
      assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1");
      final List<String> excluded =
          webhook.getNamespaceSelector().getMatchExpressions().stream()
              .filter(expression -> expression.getKey().equals("kubernetes.io/metadata.name"))
              .filter(expression -> expression.getOperator().equals("NotIn"))
              .map(LabelSelectorRequirement::getValues)
              .findFirst()
              .orElseThrow();
      assertThat(excluded).containsExactlyInAnyOrder("kube-system", namespace);
      assertThat(plugin.excludedNamespaces()).containsAll(excluded);
    }
    final ValidatingWebhook pods = webhook("/admission/pods");
    assertThat(pods.getFailurePolicy())
        .as("the webhook fails as the plugin's failure policy does")
        .isEqualTo(plugin.failurePolicy() == FailurePolicy.FAIL_OPEN ? "Ignore" : "Fail");
    assertThat(pods.getRules().get(0).getResources())
        .as("pods/resize: an in-place resize is judged too")
        .containsExactly("pods", "pods/resize");
    assertThat(webhook("/admission/quotas").getRules().get(0).getResources())
        .containsExactly("elasticquotas");
  }

  @Test
  void theConnectorsWritesSkipTheQuotaWebhookSoAPluginThatIsDownCannotBlockThem()
      throws IOException {
    final String connectors =
        "system:serviceaccount:"
            + kustomizationNamespace()
            + ":"
            + one(Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    final ValidatingWebhook quotas = webhook("/admission/quotas");
    final MatchConditions conditions = MatchConditions.of(quotas);
    assertThat(quotas.getMatchConditions())
        .allSatisfy(condition -> assertThat(condition.getName()).matches("[a-z0-9]([-a-z0-9]*)"));

    final List<AdmissionRequest> connectorWrites =
        List.of(
            quotaUpdate(connectors, null, "quotaflow.io/runtime"),
            quotaUpdate(connectors, "status", null));
    final List<AdmissionRequest> otherWrites =
        List.of(
            quotaUpdate("alice@example.com", null, "quota.scheduling.koordinator.sh/parent"),
            quotaUpdate("system:serviceaccount:koordinator-system:koord-manager", "status", null),
            quotaUpdate("system:serviceaccount:other:quotaflow-connectors", null, "x"));

    // Not called means admitted by the API server alone, whatever state the plugin is in; a
    // called webhook whose plugin is down fails as its failurePolicy says.
    for (final AdmissionRequest request : connectorWrites) {
      assertThat(conditions.calls(request)).as(request.getUserInfo().getUsername()).isFalse();
      assertThat(admittedWhilePluginIsDown(quotas, conditions, request)).isTrue();
    }
    for (final AdmissionRequest request : otherWrites) {
      assertThat(conditions.calls(request)).as(request.getUserInfo().getUsername()).isTrue();
      assertThat(admittedWhilePluginIsDown(quotas, conditions, request))
          .isEqualTo(quotas.getFailurePolicy().equals("Ignore"));
    }
    assertThat(webhook("/admission/pods").getMatchConditions())
        .as("the connectors create no pods")
        .isNullOrEmpty();
  }

  /** The API server's answer for {@code request} when the plugin cannot be reached. */
  private static boolean admittedWhilePluginIsDown(
      final ValidatingWebhook webhook,
      final MatchConditions conditions,
      final AdmissionRequest request) {
    return !conditions.calls(request) || webhook.getFailurePolicy().equals("Ignore");
  }

  /** An UPDATE of an ElasticQuota by {@code user}: of its status, or of one annotation. */
  private static AdmissionRequest quotaUpdate(
      final String user, final String subresource, final String annotation) {
    final GenericKubernetesResource old =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
            .withKind("ElasticQuota")
            .withNewMetadata()
            .withName("team-a")
            .withNamespace("team-a")
            .endMetadata()
            .build();
    final GenericKubernetesResource updated = new GenericKubernetesResourceBuilder(old).build();
    if (annotation != null) {
      updated.getMetadata().setAnnotations(Map.of(annotation, "{\"cpu\":\"1\"}"));
    } else {
      updated.setAdditionalProperty("status", Map.of("used", Map.of("cpu", "1")));
    }
    return new AdmissionRequestBuilder()
        .withUid("u")
        .withOperation("UPDATE")
        .withNewKind("scheduling.sigs.k8s.io", "ElasticQuota", "v1alpha1")
        .withNewResource("scheduling.sigs.k8s.io", "elasticquotas", "v1alpha1")
        .withSubResource(subresource)
        .withName("team-a")
        .withNamespace("team-a")
        .withNewUserInfo()
        .withUsername(user)
        .endUserInfo()
        .withObject(updated)
        .withOldObject(old)
        .build();
  }

  @Test
  void theShadowOverlayNeverDeniesNeverEvictsAndWritesOnlyQuotaflowsAnnotations()
      throws IOException {
    final PluginConfig plugin = PluginSettings.config(engineProperties(SHADOW));
    assertThat(plugin.mode()).as("admission.mode").isEqualTo(AdmissionMode.WARN);
    assertThat(plugin.failurePolicy()).isEqualTo(FailurePolicy.FAIL_OPEN);
    final Map<String, String> withoutMode = new HashMap<>(engineProperties(SHADOW));
    withoutMode.remove("admission.mode");
    // Beside Koordinator a pod's label alone chooses its group, as Koordinator does.
    assertThat(withoutMode.remove("quota.namespace.binding.open")).isEqualTo("true");
    // Without the callers' certificates, their reviews are judged only (issue 39.7).
    assertThat(withoutMode.remove(PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key()))
        .isEqualTo("true");
    assertThat(withoutMode)
        .as("only the mode, the namespace binding and unauthenticated callers differ from base")
        .isEqualTo(engineProperties());

    // Patches merge into base by name, as kustomize's strategic merge does.
    final ValidatingWebhookConfiguration webhooks =
        only(ValidatingWebhookConfiguration.class, SHADOW.resolve("webhook-ignore.yaml"));
    assertThat(webhooks.getMetadata().getName())
        .isEqualTo(one(ValidatingWebhookConfiguration.class).getMetadata().getName());
    final Map<String, String> policies = new TreeMap<>();
    webhooks.getWebhooks().forEach(hook -> policies.put(hook.getName(), hook.getFailurePolicy()));
    assertThat(policies.keySet())
        .containsExactlyInAnyOrderElementsOf(
            webhooks().stream().map(ValidatingWebhook::getName).toList());
    assertThat(policies.values()).as("never deny when unreachable").containsOnly("Ignore");

    final Deployment connectors = one(Deployment.class);
    final Deployment patch = only(Deployment.class, SHADOW.resolve("connectors-shadow.yaml"));
    final Container base = connectors.getSpec().getTemplate().getSpec().getContainers().get(0);
    final Container patched = patch.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(patch.getMetadata().getName()).isEqualTo(connectors.getMetadata().getName());
    assertThat(patched.getName()).isEqualTo(base.getName());
    final Map<String, String> environment = new HashMap<>();
    for (final EnvVar variable : concat(base.getEnv(), patched.getEnv())) {
      if (variable.getValue() != null) {
        environment.put(variable.getName(), variable.getValue());
      }
    }
    final ConnectConfig config = ConnectConfig.builder().environment(environment).build();
    assertThat(config.get(ConnectSettings.EVICTION_DRY_RUN)).as("eviction.dry.run").isTrue();
    assertThat(config.get(StatusWriterSettings.STATUS_MODE)).isEqualTo(StatusMode.SHADOW);

    final ClusterRole role = only(ClusterRole.class, SHADOW.resolve("rbac-shadow.yaml"));
    assertThat(role.getMetadata().getName())
        .isEqualTo(one(ClusterRole.class).getMetadata().getName());
    final Map<String, Set<String>> expected = documentedConnectorCalls();
    expected.remove("pods/eviction");
    expected.remove("elasticquotas.scheduling.sigs.k8s.io/status");
    assertThat(granted(role)).as("no eviction, no status").isEqualTo(expected);

    final JsonNode kustomization = YAML.readTree(SHADOW.resolve("kustomization.yaml").toFile());
    assertThat(kustomization.path("resources").get(0).asText()).isEqualTo("../../base");
    assertThat(kustomization.path("components").isMissingNode())
        .as("the CRD is Koordinator's")
        .isTrue();
  }

  @Test
  void everyOverlayRendersWithKustomizeAndOnlyDevInstallsTheCrd() throws Exception {
    assumeTrue(kubectlRuns(), "kubectl is not installed; the YAML tests above still run");
    for (final String overlay : List.of("dev", "production", "shadow")) {
      final List<HasMetadata> rendered = render(KUBERNETES.resolve("overlays").resolve(overlay));
      assertThat(rendered)
          .extracting(HasMetadata::getKind)
          .as(overlay)
          .contains("StatefulSet", "Deployment", "ValidatingWebhookConfiguration");
      assertThat(rendered.stream().anyMatch(o -> o.getKind().equals("CustomResourceDefinition")))
          .as("%s installs the CRD", overlay)
          .isEqualTo(overlay.equals("dev"));
      final ValidatingWebhookConfiguration webhooks =
          rendered.stream()
              .filter(ValidatingWebhookConfiguration.class::isInstance)
              .map(ValidatingWebhookConfiguration.class::cast)
              .findFirst()
              .orElseThrow();
      final ValidatingWebhook quotas =
          webhooks.getWebhooks().stream()
              .filter(hook -> hook.getName().startsWith("quotas."))
              .findFirst()
              .orElseThrow();
      assertThat(quotas.getMatchConditions()).as(overlay).hasSize(1);
      if (overlay.equals("shadow")) {
        assertThat(webhooks.getWebhooks())
            .extracting(ValidatingWebhook::getFailurePolicy)
            .containsOnly("Ignore");
        final Container connectors =
            rendered.stream()
                .filter(Deployment.class::isInstance)
                .map(Deployment.class::cast)
                .findFirst()
                .orElseThrow()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(connectors.getEnv())
            .extracting(EnvVar::getName)
            .contains(
                "QUOTAFLOW_EVICTION_DRY_RUN", "QUOTAFLOW_STATUS_MODE", "KAFKA_BOOTSTRAP_SERVERS");
      } else {
        assertThat(quotas.getFailurePolicy()).isEqualTo("Fail");
      }
    }
  }

  private static boolean kubectlRuns() {
    try {
      final Process process =
          new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (final IOException e) {
      return false;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static List<HasMetadata> render(final Path overlay) throws Exception {
    final Process process =
        new ProcessBuilder("kubectl", "kustomize", overlay.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    final String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("kubectl kustomize %s", overlay).isZero();
    return parse(output, overlay);
  }

  private static <T> List<T> concat(final List<T> first, final List<T> second) {
    final List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  private static <T extends HasMetadata> T only(final Class<T> type, final Path file) {
    final List<HasMetadata> objects = load(file);
    assertThat(objects).as(file.toString()).singleElement().isInstanceOf(type);
    return type.cast(objects.get(0));
  }

  private static Map<String, Set<String>> granted(final ClusterRole role) {
    return granted(role.getRules());
  }

  private static Map<String, Set<String>> granted(final List<PolicyRule> rules) {
    final Map<String, Set<String>> granted = new TreeMap<>();
    for (final PolicyRule rule : rules) {
      for (final String group : rule.getApiGroups()) {
        for (final String resource : rule.getResources()) {
          granted
              .computeIfAbsent(qualified(group, resource), key -> new TreeSet<>())
              .addAll(rule.getVerbs());
        }
      }
    }
    return granted;
  }

  @Test
  void theCertificateCoversTheAdmissionServiceAndEveryEngineName() throws IOException {
    final String namespace = kustomizationNamespace();
    final StatefulSet engine = one(StatefulSet.class);
    final List<String> names = new ArrayList<>();
    certificate("quotaflow-admission")
        .path("spec")
        .path("dnsNames")
        .forEach(name -> names.add(name.asText()));
    final String admission = webhooks().get(0).getClientConfig().getService().getName();

    assertThat(names)
        .contains(admission + "." + namespace + ".svc")
        .contains("*." + engine.getSpec().getServiceName() + "." + namespace + ".svc");
    assertThat(URI.create(schedulerExtender().path("urlPrefix").asText()).getHost()).isIn(names);
  }

  /** Issue 39.7: an instance takes another's forwarding mark by the peers' name only. */
  @Test
  void theServingCertificateCarriesThePeersName() {
    final List<String> uris = new ArrayList<>();
    certificate("quotaflow-admission").path("spec").path("uris").forEach(u -> uris.add(u.asText()));
    assertThat(uris).containsExactly(ClientCertificates.PEER_NAME);
  }

  /**
   * Issue 39.7: no overlay's engine answers the webhooks to callers it cannot identify as it
   * answers the API server. Production needs the callers' client certificates; dev and shadow say
   * explicitly that unauthenticated callers are judged only; base alone does not start.
   */
  @Test
  void everyOverlaysEngineAuthenticatesItsCallersOrSaysItJudgesThemOnly() throws Exception {
    assumeTrue(kubectlRuns(), "kubectl is not installed");
    assertThatThrownBy(() -> PluginSettings.requireAuthenticatedCallers(engineProperties()))
        .as("base alone")
        .hasMessageContaining("admission.allow.unauthenticated.webhooks=true");
    for (final String overlay : List.of("dev", "production", "shadow")) {
      final Path dir = KUBERNETES.resolve("overlays").resolve(overlay);
      final List<HasMetadata> rendered = render(dir);
      final Map<String, String> settings = new HashMap<>(engineProperties(dir));
      rendered.stream()
          .filter(StatefulSet.class::isInstance)
          .map(StatefulSet.class::cast)
          .flatMap(set -> set.getSpec().getTemplate().getSpec().getContainers().stream())
          .flatMap(container -> container.getEnv().stream())
          .filter(variable -> variable.getName().startsWith("QUOTAFLOW_ADMISSION_"))
          .forEach(
              variable ->
                  settings.put(
                      variable
                          .getName()
                          .substring("QUOTAFLOW_".length())
                          .toLowerCase(java.util.Locale.ROOT)
                          .replace('_', '.'),
                      variable.getValue()));

      PluginSettings.requireAuthenticatedCallers(settings);
      final boolean certificates =
          rendered.stream()
              .anyMatch(
                  object ->
                      object.getKind().equals("Certificate")
                          && object.getMetadata().getName().equals("quotaflow-apiserver-client"));
      if (overlay.equals("production")) {
        assertThat(settings)
            .as(overlay)
            .containsKey(PluginSettings.TLS_CLIENT_CA_FILE.key())
            .doesNotContainKey(PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key());
        assertThat(certificates).as("production issues the callers' certificates").isTrue();
      } else {
        assertThat(settings)
            .as(overlay)
            .containsEntry(PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key(), "true");
      }
    }
  }

  @Test
  void theSchedulerExtenderFiltersOverHttpsOnThePluginsPort() throws IOException {
    final PluginConfig plugin = PluginSettings.config(engineProperties());
    final JsonNode extender = schedulerExtender();
    final URI url = URI.create(extender.path("urlPrefix").asText());

    assertThat(url.getScheme()).isEqualTo("https");
    assertThat(url.getPort()).isEqualTo(plugin.port());
    assertThat(extender.path("enableHTTPS").asBoolean()).isTrue();
    assertThat(extender.path("nodeCacheCapable").asBoolean()).isTrue();
    assertThat(extender.has("ignorable")).isTrue();
  }

  /** Issue 25: the engine's ports are open to whom they serve, the connectors' to scrapes only. */
  @Test
  void networkPoliciesSelectTheEngineAndTheConnectorsAndOpenTheirPortsOnly() throws IOException {
    final StatefulSet engine = one(StatefulSet.class);
    final Deployment connectors = one(Deployment.class);
    final Map<String, NetworkPolicy> policies = new HashMap<>();
    all(NetworkPolicy.class).forEach(p -> policies.put(p.getMetadata().getName(), p));

    final NetworkPolicy enginePolicy = policies.get("quotaflow-engine");
    assertThat(enginePolicy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(engine.getSpec().getSelector().getMatchLabels());
    final Set<Integer> containerPorts = new TreeSet<>();
    engine
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getPorts()
        .forEach(port -> containerPorts.add(port.getContainerPort()));
    final Set<Integer> opened = new TreeSet<>();
    enginePolicy
        .getSpec()
        .getIngress()
        .forEach(rule -> rule.getPorts().forEach(port -> opened.add(port.getPort().getIntVal())));
    assertThat(opened).isEqualTo(containerPorts);
    final var admission =
        enginePolicy.getSpec().getIngress().stream()
            .filter(rule -> rule.getPorts().get(0).getPort().getIntVal() == 8443)
            .findFirst()
            .orElseThrow();
    assertThat(admission.getFrom()).as("8443 is not open to every pod").isNotEmpty();
    assertThat(admission.getFrom())
        .anySatisfy(
            peer ->
                assertThat(peer.getPodSelector().getMatchLabels())
                    .isEqualTo(engine.getSpec().getSelector().getMatchLabels()));

    final NetworkPolicy connectorsPolicy = policies.get("quotaflow-connectors");
    assertThat(connectorsPolicy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(connectors.getSpec().getSelector().getMatchLabels());
    assertThat(connectorsPolicy.getSpec().getIngress())
        .singleElement()
        .satisfies(
            rule -> assertThat(rule.getPorts().get(0).getPort().getIntVal()).isEqualTo(9404));
  }

  /**
   * Issue 39.8: the pod CIDR the 8443 rule keeps out of its ipBlock is required configuration. A
   * default (kubeadm's 10.244.0.0/16) silently admitted every pod of clusters whose pods use other
   * addresses (EKS, Azure CNI); the placeholder is no CIDR, so the API server refuses the policy
   * until an overlay sets one, by the patch docs/operations.md shows and the dev overlay applies.
   */
  @Test
  void the8443RulesPodCidrIsRequiredAndSetByTheDocumentedPatch() throws Exception {
    final NetworkPolicy policy =
        all(NetworkPolicy.class).stream()
            .filter(p -> p.getMetadata().getName().equals("quotaflow-engine"))
            .findFirst()
            .orElseThrow();
    // The path the documented patch replaces.
    final var ipBlock = policy.getSpec().getIngress().get(2).getFrom().get(2).getIpBlock();
    assertThat(policy.getSpec().getIngress().get(2).getPorts().get(0).getPort().getIntVal())
        .isEqualTo(8443);
    assertThat(ipBlock.getCidr()).isEqualTo("0.0.0.0/0");
    assertThat(ipBlock.getExcept())
        .singleElement()
        .satisfies(
            placeholder -> {
              assertThat(isCidr(placeholder)).as(placeholder).isFalse();
              assertThat(placeholder).contains("pod CIDR", "docs/operations.md");
            });
    final String patchPath = "path: /spec/ingress/2/from/2/ipBlock/except";
    assertThat(Files.readString(Path.of("..", "docs", "operations.md"))).contains(patchPath);
    assertThat(Files.readString(KUBERNETES.resolve("overlays/dev/kustomization.yaml")))
        .contains(patchPath);

    assumeTrue(kubectlRuns(), "kubectl is not installed");
    final NetworkPolicy dev =
        render(KUBERNETES.resolve("overlays/dev")).stream()
            .filter(NetworkPolicy.class::isInstance)
            .map(NetworkPolicy.class::cast)
            .filter(p -> p.getMetadata().getName().equals("quotaflow-engine"))
            .findFirst()
            .orElseThrow();
    assertThat(dev.getSpec().getIngress().get(2).getFrom().get(2).getIpBlock().getExcept())
        .containsExactly("10.244.0.0/16");
  }

  private static boolean isCidr(final String text) {
    final Matcher cidr = Pattern.compile("([0-9.]+|[0-9a-fA-F:]+)/(\\d{1,3})").matcher(text);
    if (!cidr.matches()) {
      return false;
    }
    try {
      java.net.InetAddress.getByName(cidr.group(1));
      return true;
    } catch (final java.net.UnknownHostException e) {
      return false;
    }
  }

  @Test
  void rbacGrantsTheConnectorsExactlyTheCallsTheyMake() throws IOException {
    final ClusterRole role = one(ClusterRole.class);

    assertThat(granted(role)).isEqualTo(documentedConnectorCalls());
    final ClusterRoleBinding binding =
        all(ClusterRoleBinding.class).stream()
            .filter(b -> b.getRoleRef().getName().equals(role.getMetadata().getName()))
            .findFirst()
            .orElseThrow();
    final Deployment connectors = one(Deployment.class);
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            subject -> {
              assertThat(subject.getName())
                  .isEqualTo(connectors.getSpec().getTemplate().getSpec().getServiceAccountName());
              assertThat(subject.getNamespace()).isEqualTo(kustomizationNamespace());
            });
    final String engineAccount =
        one(StatefulSet.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    // The engine asks the API server about people only (TokenReview, SubjectAccessReview).
    assertThat(
            all(ClusterRoleBinding.class).stream()
                .filter(b -> b.getSubjects().get(0).getName().equals(engineAccount))
                .map(b -> b.getRoleRef().getName()))
        .containsExactly("system:auth-delegator");
    assertThat(PluginSettings.kubernetesAuth(engineProperties()))
        .as("admission.api.auth=kubernetes")
        .isTrue();
  }

  @Test
  void rbacGrantsTheConnectorsTheEventsTheyEmit() {
    // The recorder's own constants: a new verb in the code fails here until RBAC grants it.
    assertThat(
            granted(one(ClusterRole.class).getRules())
                .get(qualified(EventRecorder.API_GROUP, EventRecorder.RESOURCE)))
        .as("events of %s", EventRecorder.API_GROUP)
        .containsExactlyInAnyOrderElementsOf(EventRecorder.VERBS);
  }

  @Test
  void theConnectorsRunTwoReplicasThatElectALeaderOnALeaseTheyMayUse() throws IOException {
    final Deployment connectors = one(Deployment.class);
    assertThat(connectors.getSpec().getReplicas())
        .as("a standby replica")
        .isGreaterThanOrEqualTo(2);
    final Container container = connectors.getSpec().getTemplate().getSpec().getContainers().get(0);
    final Map<String, String> fields = new HashMap<>();
    container.getEnv().stream()
        .filter(variable -> variable.getValueFrom() != null)
        .filter(variable -> variable.getValueFrom().getFieldRef() != null)
        .forEach(
            variable ->
                fields.put(
                    variable.getName(), variable.getValueFrom().getFieldRef().getFieldPath()));
    // Each replica is named by its pod: the lease holder and the consumers' static member name.
    assertThat(GroupMembership.NAME_VARIABLES.get(0)).isEqualTo("POD_NAME");
    assertThat(fields).containsEntry("POD_NAME", "metadata.name");
    // The Lease is in the pod's namespace, where the Role below grants it.
    assertThat(fields)
        .containsEntry(
            ConnectSettings.LEADER_ELECTION_LEASE_NAMESPACE.environmentName(),
            "metadata.namespace");

    // Leader election is on, and the settings the manifest gives pass the start-up checks.
    final Map<String, String> environment = new HashMap<>();
    container.getEnv().stream()
        .filter(variable -> variable.getValue() != null)
        .forEach(variable -> environment.put(variable.getName(), variable.getValue()));
    final ConnectConfig config = ConnectConfig.builder().environment(environment).build();
    assertThat(config.get(ConnectSettings.LEADER_ELECTION)).isTrue();
    final LeaderElectionSettings election =
        new LeaderElectionSettings(
            config.get(ConnectSettings.LEADER_ELECTION_LEASE_NAME),
            "quotaflow",
            config.get(ConnectSettings.LEADER_ELECTION_LEASE_DURATION),
            config.get(ConnectSettings.LEADER_ELECTION_RENEW_DEADLINE),
            config.get(ConnectSettings.LEADER_ELECTION_RETRY_PERIOD));
    assertThat(connectors.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
        .as("a stop (under 5 s) fits the grace period")
        .isGreaterThanOrEqualTo(5L)
        .isLessThan(election.leaseDuration().toSeconds() + 1);

    final Role role = one(Role.class);
    assertThat(granted(role.getRules())).isEqualTo(documentedCalls("## Leader election"));
    final RoleBinding binding = one(RoleBinding.class);
    assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
    assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            subject -> {
              assertThat(subject.getName())
                  .isEqualTo(connectors.getSpec().getTemplate().getSpec().getServiceAccountName());
              assertThat(subject.getNamespace()).isEqualTo(kustomizationNamespace());
            });
  }

  /**
   * The API calls of the connectors, from the RBAC table of docs/connectors.md: resource (with
   * group) to verbs. The rows below "## RBAC" read {@code | `pods` | `get`, `list` | ... |}.
   */
  private static Map<String, Set<String>> documentedConnectorCalls() throws IOException {
    return documentedCalls("## RBAC");
  }

  /** The rows {@code | `resource` | `verb`, ... |} of one section of docs/connectors.md. */
  private static Map<String, Set<String>> documentedCalls(final String heading) throws IOException {
    final String doc = Files.readString(CONNECTORS_DOC, StandardCharsets.UTF_8);
    final String section = doc.substring(doc.indexOf("\n" + heading + "\n") + 1);
    final Pattern row = Pattern.compile("^\\| `([^`|]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);
    final Matcher matcher = row.matcher(section.substring(0, section.indexOf("\n## ", 1)));
    final Map<String, Set<String>> calls = new TreeMap<>();
    while (matcher.find()) {
      final Set<String> verbs = new TreeSet<>();
      for (final String verb : matcher.group(2).split(",")) {
        verbs.add(verb.trim().replace("`", ""));
      }
      calls.computeIfAbsent(matcher.group(1), key -> new TreeSet<>()).addAll(verbs);
    }
    assertThat(calls).as("rows of the RBAC table").isNotEmpty();
    return calls;
  }

  /** {@code pods}, {@code pods/eviction}, {@code elasticquotas.scheduling.sigs.k8s.io/status}. */
  private static String qualified(final String group, final String resource) {
    if (group.isEmpty()) {
      return resource;
    }
    final int slash = resource.indexOf('/');
    return slash < 0
        ? resource + "." + group
        : resource.substring(0, slash) + "." + group + resource.substring(slash);
  }

  private static HttpResponse<String> call(
      final HttpClient http, final AdmissionServer server, final String path, final String body)
      throws IOException, InterruptedException {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.POST(HttpRequest.BodyPublishers.ofString(body));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<ValidatingWebhook> webhooks() {
    return one(ValidatingWebhookConfiguration.class).getWebhooks();
  }

  private ValidatingWebhook webhook(final String pathSuffix) {
    return webhooks().stream()
        .filter(webhook -> webhook.getClientConfig().getService().getPath().endsWith(pathSuffix))
        .findFirst()
        .orElseThrow();
  }

  private String connectorsClusterName() {
    final Container container =
        one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    return container.getArgs().stream()
        .filter(arg -> arg.startsWith("--in-cluster="))
        .map(arg -> arg.substring("--in-cluster=".length()))
        .findFirst()
        .orElseThrow();
  }

  private Service service(final String name) {
    return all(Service.class).stream()
        .filter(service -> service.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no Service " + name));
  }

  private JsonNode certificate(final String name) {
    return base.stream()
        .filter(object -> object.getKind().equals("Certificate"))
        .filter(object -> object.getMetadata().getName().equals(name))
        .map(object -> KUBERNETES_JSON.convertValue(object, JsonNode.class))
        .findFirst()
        .orElseThrow();
  }

  private static JsonNode schedulerExtender() throws IOException {
    final JsonNode configuration =
        YAML.readTree(KUBERNETES.resolve("scheduler/scheduler-extender.yaml").toFile());
    assertThat(configuration.path("kind").asText()).isEqualTo("KubeSchedulerConfiguration");
    return configuration.path("extenders").get(0);
  }

  private static String kustomizationNamespace() throws IOException {
    return YAML.readTree(BASE.resolve("kustomization.yaml").toFile()).path("namespace").asText();
  }

  private static Map<String, String> engineProperties() throws IOException {
    return engineProperties(BASE);
  }

  private static Map<String, String> engineProperties(final Path dir) throws IOException {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(dir.resolve("engine.properties"))) {
      properties.load(reader);
    }
    final Map<String, String> values = new HashMap<>();
    properties.stringPropertyNames().forEach(key -> values.put(key, properties.getProperty(key)));
    return values;
  }

  private static String env(final Container container, final String name) {
    return container.getEnv().stream()
        .filter(variable -> variable.getName().equals(name))
        .map(EnvVar::getValue)
        .findFirst()
        .orElseThrow();
  }

  private <T extends HasMetadata> T one(final Class<T> type) {
    final List<T> found = all(type);
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  private <T extends HasMetadata> List<T> all(final Class<T> type) {
    return base.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static List<HasMetadata> loadAll(final Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith(".yaml"))
          .filter(file -> !file.getFileName().toString().equals("kustomization.yaml"))
          .sorted()
          .flatMap(file -> load(file).stream())
          .toList();
    } catch (final IOException e) {
      throw new AssertionError("cannot list " + dir, e);
    }
  }

  /** Every object of a multi-document YAML file, typed where fabric8 knows the kind. */
  private static List<HasMetadata> load(final Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file);
    } catch (final IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }

  /** Every object of a multi-document YAML text. */
  private static List<HasMetadata> parse(final String text, final Path file) {
    final List<HasMetadata> objects = new ArrayList<>();
    for (final String document : text.split("(?m)^---\\s*$")) {
      if (document.lines().allMatch(line -> line.isBlank() || line.strip().startsWith("#"))) {
        continue;
      }
      final Object parsed = KUBERNETES_JSON.unmarshal(document);
      if (parsed instanceof HasMetadata object) {
        objects.add(object);
      } else {
        throw new AssertionError(file + " holds something that is no Kubernetes object");
      }
    }
    return objects;
  }
}

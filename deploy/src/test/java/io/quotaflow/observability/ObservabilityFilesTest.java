package io.quotaflow.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard, the alerts and the monitors of {@code deploy/observability}, checked as Grafana,
 * Prometheus and the Prometheus Operator would take them, and against the manifests they scrape.
 * (That every metric they name is exported is {@code DashboardMetricsIT}'s.)
 */
class ObservabilityFilesTest {

  private static final Path BASE = Path.of("kubernetes", "base");
  // Strict as kubectl: a key repeated in a shipped file is an error here, not the last one winning.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?(\\w+)");

  @Test
  void theRulesAlertOnWhatOperatorsMustKnow() throws IOException {
    final List<JsonNode> alerts = ObservabilityFiles.alerts();

    assertThat(ObservabilityFiles.rules().path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(alerts)
        .extracting(alert -> alert.path("alert").asText())
        .contains(
            "QuotaflowEngineNotRunning",
            "QuotaflowDeadLetters",
            "QuotaflowEvictionFailures",
            "QuotaflowWebhookLatencyHigh",
            "QuotaflowConsumerLag")
        .doesNotHaveDuplicates();
    assertThat(alerts)
        .allSatisfy(
            alert -> {
              assertThat(alert.path("expr").asText()).as(alert.toString()).isNotBlank();
              assertThat(alert.path("labels").path("severity").asText())
                  .isIn("warning", "critical");
              assertThat(alert.path("annotations").path("summary").asText()).isNotBlank();
              assertThat(alert.path("annotations").path("description").asText()).isNotBlank();
            });
  }

  @Test
  void everyPanelQueriesTheChosenDataSourceWithVariablesTheDashboardDefines() throws IOException {
    final JsonNode dashboard = ObservabilityFiles.dashboard();
    final Set<String> defined = new HashSet<>(Set.of("__rate_interval", "__interval"));
    dashboard.path("templating").path("list").forEach(v -> defined.add(v.path("name").asText()));
    final Set<Integer> ids = new HashSet<>();

    for (final JsonNode panel : dashboard.path("panels")) {
      assertThat(ids.add(panel.path("id").asInt())).as("unique id %s", panel.path("id")).isTrue();
      final JsonNode grid = panel.path("gridPos");
      assertThat(grid.path("x").asInt() + grid.path("w").asInt())
          .as(panel.path("title").asText())
          .isLessThanOrEqualTo(24);
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
      assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
      final Set<String> refIds = new HashSet<>();
      for (final JsonNode target : panel.path("targets")) {
        assertThat(refIds.add(target.path("refId").asText())).isTrue();
        assertThat(variables(target.path("expr").asText())).isSubsetOf(defined);
      }
      assertThat(variables(panel.path("title").asText())).isSubsetOf(defined);
    }
  }

  @Test
  void thePodMonitorScrapesTheMetricsPortOfTheEngineAndTheConnectors() throws IOException {
    final JsonNode monitor = YAML.readTree(ObservabilityFiles.POD_MONITOR.toFile());
    final Set<String> selected = new TreeSet<>();
    monitor
        .path("spec")
        .path("selector")
        .path("matchExpressions")
        .forEach(expression -> expression.path("values").forEach(v -> selected.add(v.asText())));
    final JsonNode endpoint = monitor.path("spec").path("podMetricsEndpoints").get(0);

    assertThat(monitor.path("kind").asText()).isEqualTo("PodMonitor");
    assertThat(selected).containsExactlyInAnyOrderElementsOf(workloads().keySet());
    assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
    for (final JsonNode workload : workloads().values()) {
      assertThat(portNames(workload)).contains(endpoint.path("port").asText());
    }
  }

  @Test
  void theServiceMonitorsServicesSelectTheEngineAndTheConnectorsMetricsPorts() throws IOException {
    final List<JsonNode> documents =
        ObservabilityFiles.documents(ObservabilityFiles.SERVICE_MONITOR);
    final Map<String, String> monitorSelector = new HashMap<>();
    final List<JsonNode> services = new ArrayList<>();
    for (final JsonNode document : documents) {
      if (document.path("kind").asText().equals("ServiceMonitor")) {
        document
            .path("spec")
            .path("selector")
            .path("matchLabels")
            .properties()
            .forEach(e -> monitorSelector.put(e.getKey(), e.getValue().asText()));
      } else if (document.path("kind").asText().equals("Service")) {
        services.add(document);
      }
    }
    final Map<String, JsonNode> workloads = workloads();
    final Set<String> covered = new TreeSet<>();

    for (final JsonNode service : services) {
      final Map<String, String> labels = new HashMap<>();
      service
          .path("metadata")
          .path("labels")
          .properties()
          .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
      assertThat(labels).containsAllEntriesOf(monitorSelector);
      final String app =
          service.path("spec").path("selector").path("app.kubernetes.io/name").asText();
      assertThat(workloads).containsKey(app);
      assertThat(portNames(workloads.get(app)))
          .contains(service.path("spec").path("ports").get(0).path("targetPort").asText());
      covered.add(app);
    }
    assertThat(covered).containsExactlyInAnyOrderElementsOf(workloads.keySet());
  }

  /** The engine's and the connectors' workloads of the base manifests, by their app label. */
  private static Map<String, JsonNode> workloads() throws IOException {
    final Map<String, JsonNode> workloads = new HashMap<>();
    for (final String file : List.of("engine.yaml", "connectors.yaml")) {
      final JsonNode workload = YAML.readTree(BASE.resolve(file).toFile());
      workloads.put(
          workload
              .path("spec")
              .path("template")
              .path("metadata")
              .path("labels")
              .path("app.kubernetes.io/name")
              .asText(),
          workload);
    }
    return workloads;
  }

  private static Set<String> portNames(final JsonNode workload) {
    final Set<String> names = new TreeSet<>();
    workload
        .path("spec")
        .path("template")
        .path("spec")
        .path("containers")
        .get(0)
        .path("ports")
        .forEach(port -> names.add(port.path("name").asText()));
    return names;
  }

  private static Set<String> variables(final String text) {
    final Set<String> names = new TreeSet<>();
    final Matcher matcher = VARIABLE.matcher(text);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}

package io.quotaflow.observability;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The files of {@code deploy/observability}, read as Prometheus and Grafana read them. */
final class ObservabilityFiles {

  static final Path DIR = Path.of("observability");
  static final Path DASHBOARD = DIR.resolve("grafana-dashboard.json");
  static final Path RULES = DIR.resolve("prometheus-rules.yaml");
  static final Path POD_MONITOR = DIR.resolve("podmonitor.yaml");
  static final Path SERVICE_MONITOR = DIR.resolve("servicemonitor.yaml");

  // Strict as kubectl: a key repeated in a shipped file is an error here, not the last one winning.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  private ObservabilityFiles() {}

  static JsonNode dashboard() throws IOException {
    return new JsonMapper().readTree(DASHBOARD.toFile());
  }

  static JsonNode rules() throws IOException {
    return YAML.readTree(RULES.toFile());
  }

  /** Every document of a multi-document YAML file. */
  static List<JsonNode> documents(final Path file) throws IOException {
    final List<JsonNode> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> read =
        YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      read.forEachRemaining(documents::add);
    }
    return documents;
  }

  /** Every PromQL expression of the dashboard: panel targets and variable queries. */
  static List<String> dashboardExpressions() throws IOException {
    final List<String> expressions = new ArrayList<>();
    for (final JsonNode panel : dashboard().path("panels")) {
      for (final JsonNode target : panel.path("targets")) {
        expressions.add(target.path("expr").asText());
      }
    }
    for (final JsonNode variable : dashboard().path("templating").path("list")) {
      if (variable.path("type").asText().equals("query")) {
        expressions.add(variable.path("query").asText());
      }
    }
    return expressions;
  }

  /** Every alert rule. */
  static List<JsonNode> alerts() throws IOException {
    final List<JsonNode> alerts = new ArrayList<>();
    for (final JsonNode group : rules().path("spec").path("groups")) {
      group.path("rules").forEach(alerts::add);
    }
    return alerts;
  }

  /** Every metric name the dashboard and the alerts read. */
  static Set<String> metricNames() throws IOException {
    final Set<String> names = new TreeSet<>();
    dashboardExpressions().forEach(expression -> names.addAll(PromQlNames.of(expression)));
    alerts().forEach(alert -> names.addAll(PromQlNames.of(alert.path("expr").asText())));
    return names;
  }
}

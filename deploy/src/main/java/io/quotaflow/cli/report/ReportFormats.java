package io.quotaflow.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A report of the query API ({@code /report}) as a table for people or CSV for spreadsheets. */
final class ReportFormats {

  private static final String[] FIGURES = {
    "guaranteed", "used", "borrowed", "lent", "guaranteeUsedPercent"
  };

  private ReportFormats() {}

  /** One row per group and resource, in the resource's unit; then evictions and denials. */
  static String table(JsonNode report) {
    final List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          "GROUP",
          "RESOURCE",
          "UNIT",
          "GUARANTEED",
          "USED",
          "BORROWED",
          "LENT",
          "GUARANTEE USED",
          "EVICTIONS",
          "DENIALS"
        });
    for (final JsonNode group : report.path("groups")) {
      final String name =
          group.path("group").asText() + (group.path("exists").asBoolean(true) ? "" : " (deleted)");
      final String evictions = byReason(group.path("evictions"));
      final String denials = byReason(group.path("denials"));
      final Iterator<Map.Entry<String, JsonNode>> resources = group.path("resources").fields();
      if (!resources.hasNext()) {
        rows.add(new String[] {name, "-", "", "", "", "", "", "", evictions, denials});
      }
      while (resources.hasNext()) {
        final Map.Entry<String, JsonNode> resource = resources.next();
        final JsonNode figures = resource.getValue();
        final String share =
            figures.path("guaranteeUsedPercent").isNull()
                ? "-"
                : figures.path("guaranteeUsedPercent").asText() + "%";
        rows.add(
            new String[] {
              name,
              resource.getKey(),
              figures.path("unit").asText(),
              figures.path("guaranteed").asText(),
              figures.path("used").asText(),
              figures.path("borrowed").asText(),
              figures.path("lent").asText(),
              share,
              evictions,
              denials
            });
      }
    }
    final StringBuilder text = new StringBuilder();
    text.append("Cluster ")
        .append(report.path("cluster").asText())
        .append(", ")
        .append(report.path("from").asText())
        .append(" to ")
        .append(report.path("to").asText())
        .append('\n');
    final int[] widths = new int[rows.get(0).length];
    for (final String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (final String[] row : rows) {
      final StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        // Names left, figures right.
        final String cell = row[i];
        final boolean left = i < 3 || i >= row.length - 2;
        final String padding = " ".repeat(widths[i] - cell.length());
        line.append(left ? cell + padding : padding + cell);
        if (i < row.length - 1) {
          line.append("  ");
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }

  /**
   * {@code group,resource,unit,guaranteed,...,evictions,denials} with a header; RFC 4180 quoting.
   */
  static String csv(JsonNode report) {
    final StringBuilder text = new StringBuilder("group,exists,resource,unit");
    for (final String figure : FIGURES) {
      text.append(',').append(figure);
    }
    text.append(",evictions,denials\n");
    for (final JsonNode group : report.path("groups")) {
      final Iterator<Map.Entry<String, JsonNode>> resources = group.path("resources").fields();
      while (resources.hasNext()) {
        final Map.Entry<String, JsonNode> resource = resources.next();
        text.append(quoted(group.path("group").asText()))
            .append(',')
            .append(group.path("exists").asBoolean(true))
            .append(',')
            .append(quoted(resource.getKey()))
            .append(',')
            .append(quoted(resource.getValue().path("unit").asText()));
        for (final String figure : FIGURES) {
          final JsonNode value = resource.getValue().path(figure);
          text.append(',').append(value.isNull() ? "" : value.asText());
        }
        text.append(',').append(quoted(byReason(group.path("evictions"))));
        text.append(',').append(quoted(byReason(group.path("denials")))).append('\n');
      }
    }
    return text.toString();
  }

  private static String byReason(JsonNode byReason) {
    final Map<String, Long> sorted = new TreeMap<>();
    byReason.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue().asLong()));
    final List<String> parts = new ArrayList<>();
    sorted.forEach((reason, count) -> parts.add(reason + " " + count));
    return String.join("; ", parts);
  }

  private static String quoted(String cell) {
    return cell.contains(",") || cell.contains("\"") || cell.contains("\n")
        ? "\"" + cell.replace("\"", "\"\"") + "\""
        : cell;
  }
}

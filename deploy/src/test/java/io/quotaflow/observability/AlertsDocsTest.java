package io.quotaflow.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The alerts table of docs/operations.md explains every alert of the rules file. */
class AlertsDocsTest {

  private static final Path DOC = Path.of("..", "docs", "operations.md");

  @Test
  void everyAlertIsExplained() throws IOException {
    final String doc = Files.readString(DOC);

    assertThat(ObservabilityFiles.alerts())
        .allSatisfy(
            alert -> assertThat(doc).contains("| `" + alert.path("alert").asText() + "` |"));
  }
}

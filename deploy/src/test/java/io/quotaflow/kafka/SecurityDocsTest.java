package io.quotaflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The table of docs/operations.md lists every setting the start-up check checks, as it checks it.
 */
class SecurityDocsTest {

  private static final Path DOC = Path.of("..", "docs", "operations.md");

  @Test
  void everyCheckedSettingIsDocumentedWithItsCheck() throws IOException {
    final String doc = Files.readString(DOC);

    assertThat(KafkaSecurity.SETTINGS)
        .allSatisfy(
            setting ->
                assertThat(doc).contains("| `" + setting.key() + "` | " + setting.check() + " |"));
  }
}

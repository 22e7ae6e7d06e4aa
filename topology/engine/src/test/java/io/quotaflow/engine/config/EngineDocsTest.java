package io.quotaflow.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The configuration table of docs/engine.md lists every setting with its real default. */
class EngineDocsTest {
  private static final Path DOC =
      Path.of(System.getProperty("basedir", "."), "..", "..", "docs", "engine.md");

  @Test
  void everySettingIsDocumentedWithItsDefault() throws IOException {
    final String doc = Files.readString(DOC);

    assertThat(EngineSettings.ALL)
        .allSatisfy(
            setting -> {
              final String shown =
                  setting.defaultValue().isEmpty() ? "(none)" : "`" + setting.defaultValue() + "`";
              assertThat(doc)
                  .contains(
                      "| `"
                          + setting.key()
                          + "` | "
                          + setting.type().replace("|", "\\|")
                          + " | "
                          + shown
                          + " |");
            });
  }
}

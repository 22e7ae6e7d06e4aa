package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConnectorsDocumentationTest {

  // Tests run in the module directory; the documentation is the project's.
  private static final Path DOC = Path.of("..", "docs", "connectors.md");

  @Test
  void everySettingIsDocumentedWithItsDefault() throws IOException {
    final String doc = Files.readString(DOC);

    for (final Setting<?> setting : ConnectSettings.ALL) {
      assertThat(doc)
          .as(setting.key())
          .contains(
              "| `"
                  + setting.key()
                  + "` | "
                  + setting.type().replace("|", "\\|")
                  + " | `"
                  + setting.defaultValue()
                  + "` |");
    }
  }
}

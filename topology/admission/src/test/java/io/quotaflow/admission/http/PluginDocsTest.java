package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings table of docs/admission.md lists every setting with its real default, and a renamed
 * setting's former keys as deprecated aliases on its row.
 */
class PluginDocsTest {
  private static final Path DOC =
      Path.of(System.getProperty("basedir", "."), "..", "..", "docs", "admission.md");

  @Test
  void everySettingIsDocumentedWithItsDefault() throws IOException {
    final String doc = Files.readString(DOC);

    assertThat(PluginSettings.ALL)
        .allSatisfy(
            setting ->
                assertThat(doc)
                    .contains(
                        setting.defaultValue().isEmpty()
                            ? "| `" + setting.key() + "` | "
                            : "| `" + setting.key() + "` | `" + setting.defaultValue() + "` |"));
  }

  @Test
  void everyDeprecatedAliasIsNamedOnItsSettingsRow() throws IOException {
    final List<String> rows = Files.readAllLines(DOC);

    assertThat(PluginSettings.ALL.stream().filter(s -> !s.deprecatedAliases().isEmpty()))
        .isNotEmpty()
        .allSatisfy(
            setting ->
                assertThat(rows)
                    .filteredOn(row -> row.startsWith("| `" + setting.key() + "` |"))
                    .singleElement()
                    .satisfies(
                        row ->
                            setting
                                .deprecatedAliases()
                                .forEach(
                                    alias ->
                                        assertThat(row)
                                            .contains("deprecated alias `" + alias + "`"))));
  }
}

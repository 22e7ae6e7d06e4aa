package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.serde.SchemaHistory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaFormatter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema history is the registry: every current schema must be a released version, and must
 * read and be read by every released version. When a schema changes, the first test fails and
 * writes the file to add under {@code target/avro-history-candidates}.
 */
class ReleasedSchemasTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
  private static final Path HISTORY = MODULE.resolve("src/main/avro-history");
  private static final Path CANDIDATES = MODULE.resolve("target/avro-history-candidates");

  static Stream<Class<? extends SpecificRecord>> recordTypes() {
    return RecordTypes.all().stream();
  }

  @ParameterizedTest
  @MethodSource("recordTypes")
  void currentSchemaIsAReleasedVersion(final Class<? extends SpecificRecord> type)
      throws IOException {
    final Schema current = SpecificData.get().getSchema(type);
    final SchemaHistory history = SchemaHistory.of(type);
    final OptionalInt version = history.versionOf(current);
    if (version.isEmpty()) {
      final String file = current.getFullName() + "/v" + (history.versions().size() + 1) + ".avsc";
      final Path candidate = CANDIDATES.resolve(file);
      Files.createDirectories(candidate.getParent());
      Files.writeString(
          candidate, SchemaFormatter.format("json/pretty", current) + "\n", StandardCharsets.UTF_8);
      assertThat(version)
          .as(
              "%s changed since its last released version: release it by copying %s to"
                  + " src/main/avro-history/%s (and commit it)",
              type.getSimpleName(), MODULE.relativize(candidate), file)
          .isPresent();
    }
  }

  @ParameterizedTest
  @MethodSource("recordTypes")
  void currentSchemaAndEveryReleasedVersionReadEachOther(
      final Class<? extends SpecificRecord> type) {
    final Schema current = SpecificData.get().getSchema(type);
    final List<Schema> versions = SchemaHistory.of(type).versions();
    final List<String> problems = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      problems.addAll(
          CompatibilityChecker.mutualProblems(
              current,
              type.getSimpleName() + " (current)",
              versions.get(i),
              type.getSimpleName() + " v" + (i + 1)));
    }
    assertThat(versions).as("released versions of %s", type.getSimpleName()).isNotEmpty();
    assertThat(problems).isEmpty();
  }

  @Test
  void keySchemasAreFrozenAtOneVersion() {
    // The fingerprint is part of the key bytes: a second version would re-key compacted topics.
    for (final Class<? extends SpecificRecord> type : RecordTypes.keys()) {
      assertThat(SchemaHistory.of(type).versions()).as(type.getSimpleName()).hasSize(1);
    }
  }

  @Test
  void historyFolderHoldsOnlyKnownRecordsWithGaplessVersions() throws IOException {
    final List<String> known =
        RecordTypes.all().stream()
            .map(type -> SpecificData.get().getSchema(type).getFullName())
            .toList();
    try (Stream<Path> folders = Files.list(HISTORY)) {
      for (final Path folder : folders.toList()) {
        final String fullName = folder.getFileName().toString();
        assertThat(known).as("record folder in avro-history").contains(fullName);
        final int loaded =
            SchemaHistory.load(fullName, getClass().getClassLoader()).versions().size();
        try (Stream<Path> files = Files.list(folder)) {
          // Every file is reachable by counting up from v1, so none is silently ignored.
          assertThat(files.map(file -> file.getFileName().toString()))
              .as("files of %s", fullName)
              .containsExactlyInAnyOrderElementsOf(
                  Stream.iterate(1, n -> n + 1).limit(loaded).map(n -> "v" + n + ".avsc").toList());
        }
      }
    }
  }
}

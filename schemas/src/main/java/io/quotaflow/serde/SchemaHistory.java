package io.quotaflow.serde;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParseException;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Every released version of one record schema, read from the classpath: {@code
 * avro-history/<FullName>/v1.avsc}, {@code v2.avsc}, ... up to the first missing number. Each file
 * is a self-contained schema (nested types inline). The files live in git under {@code
 * schemas/src/main/avro-history}; a reader resolves a record written with any of them.
 */
public final class SchemaHistory {
  /** Classpath folder holding one sub-folder per record full name. */
  public static final String RESOURCE_ROOT = "avro-history";

  private final String fullName;
  private final List<Schema> versions;

  private SchemaHistory(final String fullName, final List<Schema> versions) {
    this.fullName = fullName;
    this.versions = List.copyOf(versions);
  }

  /** The released versions of the schema of a generated record class. */
  public static SchemaHistory of(final Class<? extends SpecificRecord> type) {
    final Schema schema = SpecificData.get().getSchema(type);
    return load(schema.getFullName(), type.getClassLoader());
  }

  /**
   * Reads the released versions of the record {@code fullName} from {@code loader}.
   *
   * @throws IllegalStateException when a file does not parse or names another record
   */
  public static SchemaHistory load(final String fullName, final ClassLoader loader) {
    return load(RESOURCE_ROOT, fullName, loader);
  }

  /**
   * Reads the released versions of the record {@code fullName} from the classpath folder {@code
   * root} of {@code loader} instead of {@value #RESOURCE_ROOT}.
   *
   * @throws IllegalStateException when a file does not parse or names another record
   */
  public static SchemaHistory load(
      final String root, final String fullName, final ClassLoader loader) {
    Objects.requireNonNull(fullName, "fullName");
    final List<Schema> versions = new ArrayList<>();
    for (int version = 1; ; version++) {
      final String path = resourcePath(root, fullName, version);
      try (InputStream in = loader.getResourceAsStream(path)) {
        if (in == null) {
          break;
        }
        final Schema schema = new Schema.Parser().parse(in);
        if (!fullName.equals(schema.getFullName())) {
          throw new IllegalStateException(
              path + " defines " + schema.getFullName() + " instead of " + fullName);
        }
        versions.add(schema);
      } catch (IOException | SchemaParseException e) {
        throw new IllegalStateException("Cannot read released schema " + path, e);
      }
    }
    return new SchemaHistory(fullName, versions);
  }

  /** Classpath path of one released version, e.g. {@code avro-history/io.x.Pod/v2.avsc}. */
  public static String resourcePath(final String fullName, final int version) {
    return resourcePath(RESOURCE_ROOT, fullName, version);
  }

  private static String resourcePath(final String root, final String fullName, final int version) {
    return root + "/" + fullName + "/v" + version + ".avsc";
  }

  /** Full name of the record, e.g. {@code io.quotaflow.schemas.PodState}. */
  public String fullName() {
    return fullName;
  }

  /** Released versions, oldest first: element 0 is {@code v1}. */
  public List<Schema> versions() {
    return versions;
  }

  /**
   * The version number (1-based) whose parsing fingerprint equals that of {@code schema}; docs and
   * defaults do not count, as they do not change the bytes a writer produces.
   */
  public OptionalInt versionOf(final Schema schema) {
    final long fingerprint = SchemaNormalization.parsingFingerprint64(schema);
    for (int i = 0; i < versions.size(); i++) {
      if (SchemaNormalization.parsingFingerprint64(versions.get(i)) == fingerprint) {
        return OptionalInt.of(i + 1);
      }
    }
    return OptionalInt.empty();
  }

  /** A schema store holding every released version, for a single-object decoder. */
  public SchemaStore.Cache store() {
    final SchemaStore.Cache store = new SchemaStore.Cache();
    versions.forEach(store::addSchema);
    return store;
  }
}

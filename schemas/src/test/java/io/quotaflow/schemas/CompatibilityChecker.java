package io.quotaflow.schemas;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * The build's stand-in for a schema registry's compatibility rule: two schema versions are
 * compatible when each can read records written with the other. Problems come back as readable
 * lines naming the field.
 */
final class CompatibilityChecker {
  private CompatibilityChecker() {}

  /** Problems of {@code a} and {@code b} reading each other's records; empty when compatible. */
  static List<String> mutualProblems(
      final Schema a, final String aLabel, final Schema b, final String bLabel) {
    final List<String> problems = new ArrayList<>(problems(a, aLabel, b, bLabel));
    problems.addAll(problems(b, bLabel, a, aLabel));
    return problems;
  }

  /** Problems of {@code reader} reading records written with {@code writer}. */
  static List<String> problems(
      final Schema reader,
      final String readerLabel,
      final Schema writer,
      final String writerLabel) {
    final SchemaPairCompatibility result =
        SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
    final List<String> problems = new ArrayList<>();
    for (final Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
      problems.add(
          String.format(
              "%s cannot read %s: %s at field '%s' (%s): %s",
              readerLabel,
              writerLabel,
              incompatibility.getType(),
              fieldPath(reader, incompatibility.getLocation()),
              incompatibility.getLocation(),
              incompatibility.getMessage()));
    }
    return problems;
  }

  /**
   * Turns a JSON-pointer location of the reader schema ({@code /fields/2/type/items}) into a field
   * path ({@code problems[].reason}).
   */
  static String fieldPath(final Schema reader, final String location) {
    final String[] steps = location.split("/");
    final StringBuilder path = new StringBuilder();
    Schema current = reader;
    for (int i = 1; i < steps.length; i++) {
      final String step = steps[i];
      if (current.getType() == Schema.Type.UNION && step.matches("\\d+")) {
        current = current.getTypes().get(Integer.parseInt(step));
      } else if ("fields".equals(step)
          && i + 1 < steps.length
          && current.getType() == Schema.Type.RECORD) {
        final Schema.Field field = current.getFields().get(Integer.parseInt(steps[++i]));
        path.append(path.length() == 0 ? "" : ".").append(field.name());
        current = field.schema();
      } else if ("items".equals(step) && current.getType() == Schema.Type.ARRAY) {
        path.append("[]");
        current = current.getElementType();
      } else if ("values".equals(step) && current.getType() == Schema.Type.MAP) {
        path.append("{}");
        current = current.getValueType();
      }
      // "type", "symbols", "name", "size" and the like add nothing to the field path.
    }
    return path.length() == 0 ? "(record)" : path.toString();
  }
}

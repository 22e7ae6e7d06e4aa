package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/**
 * The rules that keep schemas evolvable: every field documented, every enum with an UNKNOWN
 * default, optional fields as null-first unions defaulting to null, collections defaulting to
 * empty.
 */
class SchemaConventionsTest {

  @Test
  void everyCurrentSchemaFollowsTheConventions() {
    final List<String> violations = new ArrayList<>();
    RecordTypes.all()
        .forEach(type -> violations.addAll(violations(SpecificData.get().getSchema(type))));

    assertThat(violations).isEmpty();
  }

  @Test
  void theConventionCheckReportsEachBrokenRule() {
    final Schema careless =
        new Schema.Parser()
            .parse(
                """
                {"type": "record", "name": "Careless", "fields": [
                  {"name": "undocumented", "type": "string"},
                  {"name": "kind", "doc": "d", "type":
                    {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
                  {"name": "nullLast", "doc": "d", "type": ["string", "null"], "default": ""},
                  {"name": "tags", "doc": "d", "type": {"type": "array", "items": "string"}}
                ]}
                """);

    assertThat(violations(careless))
        .containsExactlyInAnyOrder(
            "Careless.undocumented has no doc",
            "enum Kind has no UNKNOWN default",
            "Careless.nullLast is optional but not a null-first union defaulting to null",
            "Careless.tags is a collection without an empty default");
  }

  static List<String> violations(final Schema record) {
    final List<String> violations = new ArrayList<>();
    visit(record, violations, new HashSet<>());
    return violations;
  }

  private static void visit(
      final Schema schema, final List<String> violations, final Set<String> seen) {
    switch (schema.getType()) {
      case RECORD -> {
        if (!seen.add(schema.getFullName())) {
          return;
        }
        for (final Schema.Field field : schema.getFields()) {
          checkField(schema, field, violations);
          visit(field.schema(), violations, seen);
        }
      }
      case ENUM -> {
        if (seen.add(schema.getFullName()) && !"UNKNOWN".equals(schema.getEnumDefault())) {
          violations.add("enum " + schema.getName() + " has no UNKNOWN default");
        }
      }
      case ARRAY -> visit(schema.getElementType(), violations, seen);
      case MAP -> visit(schema.getValueType(), violations, seen);
      case UNION -> schema.getTypes().forEach(branch -> visit(branch, violations, seen));
      default -> {
        // Primitive types carry no rule of their own.
      }
    }
  }

  private static void checkField(
      final Schema record, final Schema.Field field, final List<String> violations) {
    final String name = record.getName() + "." + field.name();
    if (field.doc() == null || field.doc().isBlank()) {
      violations.add(name + " has no doc");
    }
    final Schema type = field.schema();
    if (type.getType() == Schema.Type.UNION
        && type.getTypes().stream().anyMatch(branch -> branch.getType() == Schema.Type.NULL)) {
      final boolean nullFirst = type.getTypes().get(0).getType() == Schema.Type.NULL;
      if (!nullFirst || field.defaultVal() != JsonProperties.NULL_VALUE) {
        violations.add(name + " is optional but not a null-first union defaulting to null");
      }
    }
    if ((type.getType() == Schema.Type.ARRAY || type.getType() == Schema.Type.MAP)
        && !(field.defaultVal() instanceof Collection<?> c && c.isEmpty())
        && !(field.defaultVal() instanceof Map<?, ?> m && m.isEmpty())) {
      violations.add(name + " is a collection without an empty default");
    }
  }
}

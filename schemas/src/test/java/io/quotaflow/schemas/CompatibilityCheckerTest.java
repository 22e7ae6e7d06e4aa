package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** The compatibility check can fail, and says which field is at fault. */
class CompatibilityCheckerTest {
  private static final Schema V1 = fixture("incompatible-v1.avsc");
  private static final Schema CARELESS_V2 = fixture("incompatible-v2.avsc");
  private static final Schema CAREFUL_V2 = fixture("compatible-v2.avsc");

  @Test
  void newReaderCannotReadOldRecordsWhenAFieldIsAddedWithoutDefault() {
    assertThat(CompatibilityChecker.problems(CARELESS_V2, "v2", V1, "v1"))
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .startsWith("v2 cannot read v1: READER_FIELD_MISSING_DEFAULT")
                    .contains("field 'cluster'"))
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .contains("READER_FIELD_MISSING_DEFAULT")
                    .contains("field 'problems[].severity'"));
  }

  @Test
  void neitherVersionCanReadTheOtherWhenAFieldChangesType() {
    assertThat(CompatibilityChecker.mutualProblems(V1, "v1", CARELESS_V2, "v2"))
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .startsWith("v1 cannot read v2: TYPE_MISMATCH")
                    .contains("field 'priority'"))
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .startsWith("v2 cannot read v1: TYPE_MISMATCH")
                    .contains("field 'priority'"));
  }

  @Test
  void addingOptionalFieldsWithDefaultsIsCompatibleBothWays() {
    assertThat(CompatibilityChecker.mutualProblems(V1, "v1", CAREFUL_V2, "v2")).isEmpty();
  }

  private static Schema fixture(final String name) {
    try (InputStream in =
        CompatibilityCheckerTest.class.getResourceAsStream("/compatibility/" + name)) {
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.NamespaceSelector;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The annotation quotaflow.io/namespace-selector, read as Kubernetes reads a label selector. */
class NamespaceSelectorAnnotationTest {

  private final List<SpecProblem> problems = new ArrayList<>();

  private Optional<NamespaceSelector> read(String text) {
    return NamespaceSelectorAnnotation.read(text, problems);
  }

  @Test
  void matchLabelsAndEveryExpressionMustHold() {
    final NamespaceSelector selector =
        read("""
                {"matchLabels": {"team": "vision"},
                 "matchExpressions": [
                   {"key": "env", "operator": "In", "values": ["dev", "prod"]},
                   {"key": "frozen", "operator": "DoesNotExist"},
                   {"key": "tier", "operator": "NotIn", "values": ["free"]},
                   {"key": "owner", "operator": "Exists"}]}
                """)
            .orElseThrow();

    assertThat(problems).isEmpty();
    final Map<String, String> vision = Map.of("team", "vision", "env", "dev", "owner", "ana");
    assertThat(selector.matches(vision)).isTrue();
    assertThat(selector.matches(Map.of("team", "vision", "env", "dev"))).as("no owner").isFalse();
    assertThat(selector.matches(Map.of("team", "nlp", "env", "dev", "owner", "x"))).isFalse();
    assertThat(selector.matches(Map.of("team", "vision", "env", "qa", "owner", "x"))).isFalse();
    assertThat(
            selector.matches(Map.of("team", "vision", "env", "dev", "owner", "x", "frozen", "1")))
        .isFalse();
    assertThat(
            selector.matches(Map.of("team", "vision", "env", "dev", "owner", "x", "tier", "free")))
        .isFalse();
  }

  @Test
  void anEmptySelectorSelectsEveryNamespaceAsInKubernetes() {
    assertThat(read("{}").orElseThrow().matches(Map.of())).isTrue();
  }

  @Test
  void anAbsentOrBlankAnnotationIsNoSelector() {
    assertThat(read(null)).isEmpty();
    assertThat(read("  ")).isEmpty();
    assertThat(problems).isEmpty();
  }

  @Test
  void aBadSelectorIsAProblemNamingTheAnnotationAndSelectsNothing() {
    assertThat(read("{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Equals\"}]}"))
        .isEmpty();
    assertThat(read("{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\"}]}")).isEmpty();
    assertThat(
            read(
                "{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Exists\","
                    + " \"values\": [\"x\"]}]}"))
        .isEmpty();
    assertThat(read("{\"matchLabel\": {\"a\": \"b\"}}")).isEmpty();
    assertThat(read("[\"team-a\"]")).isEmpty();
    assertThat(read("{not json")).isEmpty();

    assertThat(problems)
        .hasSize(6)
        .allSatisfy(
            problem ->
                assertThat(problem.field())
                    .isEqualTo("metadata.annotations[quotaflow.io/namespace-selector]"));
    assertThat(problems.get(0).reason()).contains("one of [In, NotIn, Exists, DoesNotExist]");
    assertThat(problems.get(1).reason()).contains("In needs at least one value");
    assertThat(problems.get(2).reason()).contains("Exists takes no values");
    assertThat(problems.get(3).reason()).contains("unknown field matchLabel");
  }
}

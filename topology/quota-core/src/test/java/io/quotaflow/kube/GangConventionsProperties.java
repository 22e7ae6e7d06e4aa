package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Invariants of reading a pod's gang, whatever its labels and annotations hold. */
class GangConventionsProperties {

  @Property(tries = 500)
  void theGangIsTheFirstNamingAndEveryOtherNameIsAProblem(
      @ForAll("values") Optional<String> podGroup,
      @ForAll("values") Optional<String> koordinator,
      @ForAll("values") Optional<String> volcano,
      @ForAll("minAvailable") Optional<String> minAvailable) {
    final Map<String, String> labels = new HashMap<>();
    podGroup.ifPresent(value -> labels.put(GangConventions.POD_GROUP_LABEL, value));
    final Map<String, String> annotations = new HashMap<>();
    koordinator.ifPresent(value -> annotations.put(GangConventions.KOORDINATOR_NAME, value));
    volcano.ifPresent(value -> annotations.put(GangConventions.VOLCANO_GROUP_NAME, value));
    minAvailable.ifPresent(
        value -> annotations.put(GangConventions.KOORDINATOR_MIN_AVAILABLE, value));
    final List<SpecProblem> problems = new ArrayList<>();

    final Optional<Gang> gang = GangConventions.read(labels, annotations, problems);

    final List<String> names = new ArrayList<>();
    for (final Optional<String> value : List.of(podGroup, koordinator, volcano)) {
      value.filter(v -> !v.isBlank()).map(String::trim).ifPresent(names::add);
    }
    assertThat(gang.map(Gang::name)).isEqualTo(names.stream().findFirst());
    final long conflicts = names.stream().filter(name -> !name.equals(names.get(0))).count();
    final long nameProblems =
        problems.stream().filter(problem -> !problem.field().contains("min-available")).count();
    assertThat(nameProblems).isEqualTo(conflicts);
    // A minMember is only ever Koordinator's, given with a Koordinator name equal to the gang's.
    gang.filter(g -> g.minMember().isPresent())
        .ifPresent(
            g -> {
              assertThat(koordinator.map(String::trim)).contains(g.name());
              assertThat(minAvailable.map(String::trim).map(Integer::parseInt))
                  .contains(g.minMember().getAsInt());
            });
    final Set<String> fields = new LinkedHashSet<>();
    problems.forEach(problem -> assertThat(fields.add(problem.field())).isTrue());
  }

  @Provide
  Arbitrary<Optional<String>> values() {
    return Arbitraries.of("a", "b", " a ", "", "  ", "train").optional(0.7);
  }

  @Provide
  Arbitrary<Optional<String>> minAvailable() {
    return Arbitraries.oneOf(
            Arbitraries.integers().between(-2, 5).map(String::valueOf),
            Arbitraries.strings().ofMaxLength(4))
        .optional(0.6);
  }
}

package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.PodExplanation;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A pod's explanation agrees with the computation (issue 27): the group it names is the one the pod
 * is charged to, and the class rule's numbers it shows give the class the core gave the pod.
 */
class PodExplanationProperties {

  @Property(tries = 200)
  void theExplanationGivesThePodsGroupAndClass(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 10) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(random);
    final ClusterInputs inputs = gen.cluster(groups, random.nextInt(40), 1 + random.nextInt(3));
    final ClusterQuotaState state =
        ClusterQuotaState.restore(options, inputs, IncrementalEqualsFullProperties.emptySnapshot());
    state.recompute();
    final PodExplainer explainer =
        new PodExplainer(state.whatIfInputs(), GroupDirectory.of(inputs.groups()), options);

    for (final QuotaPod pod : inputs.pods()) {
      final Optional<PodAssignment> assignment = state.pod(pod.ref());
      final String group = assignment.map(PodAssignment::group).orElseThrow();
      final PodExplanation explanation = explainer.explain(pod, assignment, state.podsOf(group));

      assertThat(explanation.group().name()).isEqualTo(group);
      assertThat(ExplanationText.of(explanation)).contains("Group: " + group);
      assertThat(explanation.quotaClass().isPresent())
          .isEqualTo(assignment.get().podClass().isPresent());
      if (SpecialGroups.SYSTEM.equals(group)) {
        continue;
      }
      explanation
          .quotaClass()
          .ifPresent(
              basis -> {
                final boolean within =
                    basis.dimensions().stream().allMatch(d -> d.with() <= d.min());
                assertThat(basis.podClass())
                    .as("%s in %s: %s", pod.ref(), group, basis)
                    .isEqualTo(within ? "in-quota" : "over-quota");
              });
    }
  }
}

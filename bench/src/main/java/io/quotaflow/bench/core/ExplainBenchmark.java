package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.explain.ExplanationJson;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.RuntimeExplainer;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The explanation of one group's runtime (issue 27: the web view asks for it on click, so at most 5
 * ms in a 10,000-group tree), on the group whose explanation is the longest: the deepest group
 * under the widest splits. Beside it, in the same run, the admission what-if of a pod of that group
 * (the same walk without a trace, what every webhook call pays) and the explanation with its text
 * and JSON, as the query API answers it.
 */
public class ExplainBenchmark extends CoreBenchmark {

  @Param({"10000"})
  public int groups;

  private ClusterQuotaState state;
  private RuntimeExplainer explainer;
  private String group;

  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    state = liveState(cluster);
    explainer = state.explainer();
    long widest = -1;
    for (final GroupStatus status : state.snapshot().groups()) {
      if (!status.valid()
          || status.parentGroup()
          || SpecialGroups.isSpecial(status.name())
          || SpecialGroups.ROOT.equals(status.name())) {
        continue;
      }
      final RuntimeExplanation explanation =
          explainer.explain(status.name(), ResourceList.CPU).orElseThrow();
      final long size =
          explanation.levels().stream()
              .mapToLong(level -> level.participants().size() + level.rounds().size() * 100L)
              .sum();
      if (size > widest) {
        widest = size;
        group = status.name();
      }
    }
    final RuntimeExplanation chosen = explainer.explain(group, ResourceList.CPU).orElseThrow();
    if (chosen.runtime() != state.group(group).orElseThrow().runtime().get(ResourceList.CPU)) {
      throw new IllegalStateException("the explanation does not give the group's runtime");
    }
    System.out.printf(
        "%nexplained group %s: %d levels, %d participants, %d rounds%n",
        group,
        chosen.levels().size(),
        chosen.levels().stream().mapToInt(l -> l.participants().size()).sum(),
        chosen.levels().stream().mapToInt(l -> l.rounds().size()).sum());
  }

  @Benchmark
  public RuntimeExplanation explain() {
    return explainer.explain(group, ResourceList.CPU).orElseThrow();
  }

  @Benchmark
  public int explainAsTheQueryApiAnswers() {
    final RuntimeExplanation explanation = explainer.explain(group, ResourceList.CPU).orElseThrow();
    return ExplanationText.of(explanation).length() + ExplanationJson.of(explanation).size();
  }

  @Benchmark
  public Map<String, ResourceList> whatIfOfAPod() {
    return state.whatIfRuntimes(group, ResourceList.of(ResourceList.CPU, 500));
  }
}

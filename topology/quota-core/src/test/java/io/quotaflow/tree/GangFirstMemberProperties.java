package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.GangAdmission;
import io.quotaflow.rules.InFlight;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * docs/semantics.md section 21, admission of gangs: the first member of a gang is admitted exactly
 * when the gang's minMember pods, all added to the cluster, would fit whole, judged on the full
 * recomputation rather than the what-if the check uses. (In this package for {@link
 * RandomClusters}.)
 */
class GangFirstMemberProperties {

  @Property(tries = 400)
  @StatisticsReport(onFailureOnly = true)
  void admissionNeverAdmitsTheFirstMemberOfAGangThatCannotFitWhole(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 12) int groups,
      @ForAll @IntRange(min = 2, max = 6) int minMember) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(random);
    final ClusterInputs inputs = gen.cluster(groups, random.nextInt(30), 1 + random.nextInt(3));
    final ClusterQuotaState state =
        ClusterQuotaState.restore(options, inputs, IncrementalEqualsFullProperties.emptySnapshot());
    state.recompute();
    final Member members = Member.random(gen, random, minMember);
    final QuotaPod first = members.named("member-0");
    final AdmissionRequest request =
        AdmissionRequest.of(first, GroupDirectory.of(inputs.groups()), options);
    Assume.that(!SpecialGroups.SYSTEM.equals(request.group()));
    final Gang gang = first.gang().orElseThrow();

    final GangAdmission.FirstMember decision =
        GangAdmission.first(request, gang, 0, state.whatIfInputs(), InFlight.empty(), options);

    // The whole gang added, pending, and the cluster computed again.
    for (int i = 0; i < minMember; i++) {
      state.putPod(members.named("member-" + i));
    }
    state.recompute();
    final ResourceList whole = GangAdmission.times(request.request(), gang.minMember().getAsInt());
    final boolean fitsWhole =
        request.problem().isEmpty() && fits(state, request.group(), whole, first.preemptible());

    Statistics.collect(fitsWhole ? "fits whole" : "does not fit whole");
    assertThat(decision.decision().allowed()).isEqualTo(fitsWhole);
    assertThat(decision.rest().isPresent()).isEqualTo(fitsWhole);
    // Both answers must be common for the property to say anything.
    Statistics.coverage(
        checker -> {
          checker.check("fits whole").percentage(percent -> percent > 2);
          checker.check("does not fit whole").percentage(percent -> percent > 2);
        });
  }

  /** The gang's members, alike but for their names. */
  private record Member(
      String namespace, String group, ResourceList request, boolean preemptible, Gang gang) {

    static Member random(RandomClusters gen, Random random, int minMember) {
      final Map<String, Long> request = new TreeMap<>();
      for (final String dim : RandomClusters.DIMS) {
        if (random.nextInt(4) > 0) {
          request.put(dim, gen.amount(6));
        }
      }
      // In the group's own namespace, so that the label is honoured (RandomClusters binds it).
      final String group = gen.anyGroupName();
      return new Member(
          "ns-" + group,
          group,
          ResourceList.of(request),
          random.nextInt(4) > 0,
          new Gang("g", OptionalInt.of(minMember), "scheduler-plugins"));
    }

    QuotaPod named(String name) {
      return QuotaPod.builder(namespace, name)
          .quotaName(group)
          .phase(PodPhase.PENDING)
          .request(request)
          .preemptible(preemptible)
          .gang(gang)
          .build();
    }
  }

  /**
   * SPEC 10 over the recomputed statuses: used + whole within the runtime (and min), up the tree.
   */
  private static boolean fits(
      ClusterQuotaState state, String group, ResourceList whole, boolean preemptible) {
    final Set<String> seen = new HashSet<>();
    String name = group;
    while (!SpecialGroups.ROOT.equals(name) && !name.isEmpty() && seen.add(name)) {
      final Optional<GroupStatus> found = state.group(name);
      if (found.isEmpty()) {
        return false;
      }
      final GroupStatus status = found.get();
      if (!SpecialGroups.SYSTEM.equals(name)) {
        for (final String dim : status.trackedDimensions()) {
          if (over(status.used().get(dim), whole.get(dim), status.runtime().get(dim))) {
            return false;
          }
          if (!preemptible
              && !SpecialGroups.DEFAULT.equals(name)
              && over(
                  status.nonPreemptibleUsed().get(dim), whole.get(dim), status.min().get(dim))) {
            return false;
          }
        }
      }
      name = status.parent();
    }
    return true;
  }

  private static boolean over(long used, long asked, long bound) {
    // As the check: a sum beyond a long exceeds every bound.
    try {
      return Math.addExact(used, asked) > bound;
    } catch (ArithmeticException overflow) {
      return true;
    }
  }
}

package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.AdmissionCheck;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.GangAdmission;
import io.quotaflow.rules.InFlight;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.WhatIfInputs;
import java.util.Optional;
import java.util.OptionalInt;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The admission of a gang's first member (issue 28: the what-if with all {@code minMember} pods of
 * the gang) beside the admission of a lone pod of the same size, in the same run, on the deepest
 * leaf group of a 10,000-group tree: the webhook pays one of the two for every pod, so the gang's
 * first member should cost about what a lone pod does.
 */
public class GangAdmissionBenchmark extends CoreBenchmark {

  @Param({"10000"})
  public int groups;

  @Param({"8", "1000"})
  public int minMember;

  private WhatIfInputs inputs;
  private AdmissionRequest request;
  private Gang gang;

  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    final ClusterQuotaState state = liveState(cluster);
    inputs = state.whatIfInputs();
    // The deepest leaf, preferring one where a lone pod is admitted (the path every allowed pod
    // pays); the synthetic cluster may have none with room, then both are denials.
    String deepest = null;
    int depth = -1;
    boolean admits = false;
    for (final GroupStatus status : state.snapshot().groups()) {
      if (!status.valid()
          || status.parentGroup()
          || SpecialGroups.isSpecial(status.name())
          || SpecialGroups.ROOT.equals(status.name())) {
        continue;
      }
      int levels = 0;
      for (String parent = status.parent();
          !parent.isEmpty() && !SpecialGroups.ROOT.equals(parent);
          parent = state.group(parent).map(GroupStatus::parent).orElse("")) {
        levels++;
      }
      final boolean fits = admitsOneMilliCore(status.name());
      if ((fits && !admits) || (fits == admits && levels > depth)) {
        depth = levels;
        deepest = status.name();
        admits = fits;
      }
    }
    request = podOf(deepest);
    gang = new Gang("training", OptionalInt.of(minMember), GangConventions.KOORDINATOR);
    final boolean lone = lonePod().allowed();
    final boolean whole = gangFirstMember().decision().allowed();
    System.out.printf(
        "%ngroup %s at depth %d: lone pod allowed %s, gang of %d allowed %s%n",
        deepest, depth, lone, minMember, whole);
  }

  private boolean admitsOneMilliCore(String group) {
    return AdmissionCheck.check(
            podOf(group),
            inputs,
            InFlight.empty(),
            AdmissionCheck.PodState.NEW,
            QuotaOptions.DEFAULTS)
        .allowed();
  }

  private static AdmissionRequest podOf(String group) {
    return new AdmissionRequest(
        new PodRef("bench", "worker-0"),
        group,
        ResourceList.of(ResourceList.CPU, 1),
        true,
        Optional.empty());
  }

  @Benchmark
  public AdmissionDecision lonePod() {
    return AdmissionCheck.check(
        request, inputs, InFlight.empty(), AdmissionCheck.PodState.NEW, QuotaOptions.DEFAULTS);
  }

  @Benchmark
  public GangAdmission.FirstMember gangFirstMember() {
    return GangAdmission.first(request, gang, 0, inputs, InFlight.empty(), QuotaOptions.DEFAULTS);
  }
}

package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/semantics.md 21.2 and 21.5: the pod webhook judges the first member of a scheduler-plugins
 * or Volcano gang with its whole gang, its minMember read from the gang's PodGroup as the engine
 * read it from podgroups.v1 (the pod does not carry it). A gang of 8 whose whole does not fit is
 * denied at its first pod though that pod fits alone; one that fits is admitted and holds the room
 * of the 7 others; without its PodGroup the pod is judged alone, as before.
 */
class PodGroupGangAdmissionTest {

  private static final String PATH = "/clusters/east/admission/pods";
  private static final int MIN_MEMBER = 8;

  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin;
  // team-a's room for new pods, and the largest member eight of which fit in it.
  private long room;
  private long fitting;

  @BeforeEach
  void sizes() {
    room = TestClusters.room(state, "team-a");
    fitting = room / MIN_MEMBER;
    assertThat(fitting).isPositive();
  }

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private JsonNode create(final String convention, final String name, final long milliCpu) {
    if (plugin == null) {
      plugin = Plugin.start(state);
    }
    final Reviews.PodJson pod = pod("alpha", name).cpu(milliCpu + "m");
    if (GangConventions.VOLCANO.equals(convention)) {
      pod.annotation(GangConventions.VOLCANO_GROUP_NAME, "train");
    } else if (GangConventions.SCHEDULER_PLUGINS.equals(convention)) {
      pod.label(GangConventions.POD_GROUP_LABEL, "train");
    }
    return plugin.post(PATH, createPod("uid-" + name, pod)).json().get("response");
  }

  private void podGroup(final String convention, final int minMember) {
    state.podGroups(
        "east",
        List.of(
            new PodGroupObject(
                "alpha", "train", convention, OptionalInt.of(minMember), List.of())));
  }

  @ParameterizedTest
  @ValueSource(strings = {GangConventions.SCHEDULER_PLUGINS, GangConventions.VOLCANO})
  void aGangOfEightWhoseWholeDoesNotFitIsDeniedAtItsFirstPod(final String convention) {
    podGroup(convention, MIN_MEMBER);
    final long member = fitting + 1;
    assertThat(member).as("the first pod fits alone").isLessThanOrEqualTo(room);

    final JsonNode response = create(convention, "train-0", member);

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText())
        .contains("gang train needs 8 pods of cpu " + Quantities.format("cpu", member))
        .contains("request " + Quantities.format("cpu", MIN_MEMBER * member));
    assertThat(plugin.server().holds().of("east").holds(new PodRef("alpha", "train-0"))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {GangConventions.SCHEDULER_PLUGINS, GangConventions.VOLCANO})
  void aGangOfEightThatFitsIsAdmittedAndHoldsTheRoomOfTheOthers(final String convention) {
    podGroup(convention, MIN_MEMBER);

    final JsonNode first = create(convention, "train-0", fitting);
    // Beside the gang's hold there is room for what the eight do not take, not a milli-core more.
    final JsonNode other = create("no gang", "other", room - MIN_MEMBER * fitting + 1);

    assertThat(first.get("allowed").asBoolean()).as(first.toString()).isTrue();
    assertThat(plugin.server().holds().of("east").holds(new PodRef("alpha", "gang/train")))
        .as("the room of the 7 others is held")
        .isTrue();
    assertThat(other.get("allowed").asBoolean()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {GangConventions.SCHEDULER_PLUGINS, GangConventions.VOLCANO})
  void withoutItsPodGroupTheFirstPodIsJudgedAloneAsBefore(final String convention) {
    final JsonNode response = create(convention, "train-0", fitting + 1);

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(plugin.server().holds().of("east").holds(new PodRef("alpha", "gang/train")))
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {GangConventions.SCHEDULER_PLUGINS, GangConventions.VOLCANO})
  void aPodGroupOfTheOtherApiIsNotTheGangsPodGroup(final String convention) {
    podGroup(
        GangConventions.VOLCANO.equals(convention)
            ? GangConventions.SCHEDULER_PLUGINS
            : GangConventions.VOLCANO,
        MIN_MEMBER);

    assertThat(create(convention, "train-0", fitting + 1).get("allowed").asBoolean()).isTrue();
  }
}

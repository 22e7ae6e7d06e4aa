package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeaderElectionSettingsTest {

  @Test
  void theDefaultsPassTheirChecks() {
    final LeaderElectionSettings settings =
        ConnectSettings.leaderElection(ConnectConfig.builder().build());

    assertThat(settings.leaseName()).isEqualTo("quotaflow-connectors");
    assertThat(settings.namespace()).isEmpty();
    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void aRenewDeadlineNotShorterThanTheLeaseIsRefusedNamingBothSettings() {
    final ConnectConfig config =
        ConnectConfig.builder()
            .set("leader.election.lease.duration", "10s")
            .set("leader.election.renew.deadline", "10s")
            .build();

    assertThatThrownBy(() -> ConnectSettings.leaderElection(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leader.election.lease.duration")
        .hasMessageContaining("leader.election.renew.deadline");
  }

  @Test
  void aRetryPeriodThatLeavesNoRoomToRenewIsRefusedNamingIt() {
    final ConnectConfig config =
        ConnectConfig.builder()
            .set("leader.election.renew.deadline", "2s")
            .set("leader.election.retry.period", "2s")
            .build();

    assertThatThrownBy(() -> ConnectSettings.leaderElection(config))
        .hasMessageContaining("leader.election.retry.period")
        .hasMessageContaining("leader.election.renew.deadline");
  }

  @Test
  void aLeaseNameOrNamespaceThatKubernetesWouldRefuseIsRefusedAtStart() {
    assertThatThrownBy(
            () -> ConnectConfig.builder().set("leader.election.lease.name", "Not_A_Name").build())
        .hasMessageContaining("leader.election.lease.name");
    assertThatThrownBy(
            () -> ConnectConfig.builder().set("leader.election.lease.namespace", "a.b").build())
        .hasMessageContaining("leader.election.lease.namespace");
  }

  @Test
  void theInstanceIsNamedByTheSettingElseThePodElseTheHost() {
    final Map<String, String> pod = Map.of("POD_NAME", "connectors-7f9-x2", "HOSTNAME", "h");

    assertThat(ConnectSettings.instanceId(ConnectConfig.builder().build(), pod))
        .isEqualTo("connectors-7f9-x2");
    assertThat(ConnectSettings.instanceId(ConnectConfig.builder().build(), Map.of("HOSTNAME", "h")))
        .isEqualTo("h");
    assertThat(
            ConnectSettings.instanceId(
                ConnectConfig.builder().set("instance.id", "replica-1").build(), pod))
        .isEqualTo("replica-1");
  }
}

package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.PodRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioCatalogueTest {

  private static final Path SCENARIOS = LocalFiles.localDir().resolve("scenarios");

  @TempDir Path dir;

  @Test
  void gpuBorrowingReadsAsItsFileSays() {
    final Scenario scenario = new ScenarioCatalogue(SCENARIOS).named("gpu-borrowing");

    assertThat(scenario.revokeDelay()).contains("5s");
    assertThat(scenario.cluster()).allMatch(Files::isRegularFile);
    assertThat(scenario.steps()).hasSize(5);
    assertThat(scenario.steps().get(0).expect().runtime())
        .isEqualTo(
            Map.of(
                "team-a", Map.of("nvidia.com/gpu", "6", "cpu", "3"),
                "team-b", Map.of("nvidia.com/gpu", "0", "cpu", "0")));
    assertThat(scenario.steps().get(1).create()).allMatch(Files::isRegularFile);
    assertThat(scenario.steps().get(2).expect().evicted())
        .containsExactly(new PodRef("team-a", "a-3"));
    assertThat(scenario.steps().get(2).within()).isEqualTo(Duration.ofSeconds(40));
    assertThat(scenario.steps().get(3).bind())
        .containsExactly(new PodRef("team-b", "b-1"), new PodRef("team-b", "b-2"));
    assertThat(scenario.steps().get(3).node()).contains("gpu-node");
    assertThat(scenario.steps().get(4).admit()).get().matches(Files::isRegularFile);
    assertThat(scenario.steps().get(4).expect().admission())
        .isEqualTo(Optional.of(Scenario.AdmissionAnswer.DENIED));
  }

  @Test
  void queueReservationReadsAsItsFileSays() {
    final Scenario scenario = new ScenarioCatalogue(SCENARIOS).named("queue-reservation");

    assertThat(scenario.steps()).hasSize(5);
    assertThat(scenario.steps().get(0).expect().reservation())
        .isEqualTo(Map.of("team-a", new Scenario.ReservationExpect(List.of(), false, true)));
    assertThat(scenario.steps().get(1).apply()).singleElement().matches(Files::isRegularFile);
    assertThat(scenario.steps().get(1).expect().reservation())
        .isEqualTo(
            Map.of(
                "team-a",
                new Scenario.ReservationExpect(List.of("node-2", "node-3"), true, false)));
    assertThat(scenario.steps().get(2).schedule()).get().matches(Files::isRegularFile);
    assertThat(scenario.steps().get(2).expect().scheduled())
        .contains(new Scenario.ScheduledExpect(List.of("node-2", "node-3"), Optional.of("node-1")));
    assertThat(scenario.steps().get(3).expect().evicted())
        .containsExactly(new PodRef("team-b", "b-1"));
  }

  @Test
  void nodePoolsStartsFromTheNodePoolsExampleAndSchedulesAPodOfEachTree() {
    final Scenario scenario = new ScenarioCatalogue(SCENARIOS).named("node-pools");

    assertThat(scenario.cluster())
        .allMatch(file -> file.normalize().getParent().endsWith(Path.of("examples", "node-pools")))
        .extracting(file -> file.getFileName().toString())
        .containsExactly("nodes.yaml", "profiles.yaml", "quotas.yaml", "pods.yaml");
    assertThat(scenario.steps()).hasSize(3);
    assertThat(scenario.steps().get(0).expect().runtime())
        .containsEntry("vision", Map.of("nvidia.com/gpu", "6"))
        .containsEntry("gpu-root", Map.of("nvidia.com/gpu", "7", "cpu", "57600m"));
    assertThat(scenario.steps().get(1).expect().scheduled())
        .contains(
            new Scenario.ScheduledExpect(
                List.of("gpu-node-1", "gpu-node-2"), Optional.of("cpu-node-1")));
    assertThat(scenario.steps().get(2).expect().scheduled())
        .contains(
            new Scenario.ScheduledExpect(
                List.of("cpu-node-1", "cpu-node-2"), Optional.of("gpu-node-1")));
  }

  @Test
  void everyScenarioOfTheCheckoutReadsAndNamesFilesThatExist() {
    assertThat(new ScenarioCatalogue(SCENARIOS).all())
        .isNotEmpty()
        .allSatisfy(
            scenario -> {
              assertThat(scenario.summary()).isNotBlank();
              assertThat(scenario.cluster()).isNotEmpty().allMatch(Files::isRegularFile);
              scenario
                  .steps()
                  .forEach(
                      step -> {
                        assertThat(step.create()).allMatch(Files::isRegularFile);
                        assertThat(step.apply()).allMatch(Files::isRegularFile);
                        step.schedule().ifPresent(file -> assertThat(file).isRegularFile());
                      });
            });
  }

  @Test
  void fairShareMemoryPlaysWithItsSettingsAndWaitsForTheRememberedBorrowing() {
    final Scenario scenario = new ScenarioCatalogue(SCENARIOS).named("fair-share-memory");

    assertThat(scenario.settings())
        .containsEntry("fairshare.memory.enabled", "true")
        .containsEntry("fairshare.memory.half-life", "30s");
    assertThat(scenario.steps().get(0).expect().pastBorrowed())
        .isEqualTo(Map.of("team-a", Map.of("nvidia.com/gpu", "6")));
  }

  @Test
  void aScenarioSettingMustBeAnEngineSetting() throws IOException {
    write("unknown", "summary: s\nsettings: {fairshare.memroy.enabled: \"true\"}\nsteps: []\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("unknown"))
        .hasMessageContaining("unknown.yaml")
        .hasMessageContaining("names no engine setting fairshare.memroy.enabled");
  }

  @Test
  void aScenarioSettingMustBeReadable() throws IOException {
    write("unreadable", "summary: s\nsettings: {fairshare.memory.half-life: soon}\nsteps: []\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("unreadable"))
        .hasMessageContaining("unreadable.yaml")
        .hasMessageContaining("soon");
  }

  @Test
  void aStepMustSayWhatHappens() throws IOException {
    write("silent", "summary: s\ncluster: [c.yaml]\nsteps:\n  - create: [x.yaml]\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("silent"))
        .hasMessageContaining("silent.yaml")
        .hasMessageContaining("'say'");
  }

  @Test
  void aMisspelledKeyIsAnErrorNotIgnored() throws IOException {
    write("typo", "summary: s\nsteps:\n  - say: hello\n    expct: {}\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("typo"))
        .hasMessageContaining("typo.yaml")
        .hasMessageContaining("expct");
  }

  @Test
  void aKeyRepeatedInAStepIsAnErrorNamingItsLineNotTheLastOneWinning() throws IOException {
    write(
        "twice",
        """
        summary: s
        steps:
          - say: hi
            expect: {admission: denied}
            expect: {evicted: [team-a/a-1]}
        """);

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("twice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Scenario "
                + dir.resolve("twice.yaml")
                + " cannot be read: repeated key steps[0].expect at line 5; a key may appear once"
                + " in a mapping");
  }

  @Test
  void anExpectedRuntimeMustBeAQuantity() throws IOException {
    write(
        "bad-number",
        "summary: s\nsteps:\n  - say: hi\n    expect:\n      runtime: {team-a: {cpu: lots}}\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("bad-number"))
        .hasMessageContaining("bad-number.yaml");
  }

  @Test
  void bindingPodsNeedsANode() throws IOException {
    write("nowhere", "summary: s\nsteps:\n  - say: hi\n    bind: [ns/p]\n");

    assertThatThrownBy(() -> new ScenarioCatalogue(dir).named("nowhere"))
        .hasMessageContaining("names the node");
  }

  private void write(final String name, final String text) throws IOException {
    Files.writeString(dir.resolve(name + ".yaml"), text);
  }
}

package io.quotaflow.modules;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.cli.Main;
import io.quotaflow.connect.ConnectCommand;
import io.quotaflow.engine.Engine;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.ClusterQuotaState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The arrows between quotaflow's modules run one way: schemas &lt;- quota-core &lt;- engine &lt;-
 * admission, and connectors and the commands sit on top. Maven already refuses a missing
 * dependency; these rules also catch one that arrives transitively, checked on the compiled classes
 * of each module (imported from the jar or classes folder the module was loaded from).
 */
class ModuleBoundariesTest {

  private static final String[] KAFKA = {"org.apache.kafka.."};
  private static final String[] JETTY = {"org.eclipse.jetty.."};
  private static final String KUBERNETES_CLIENT = "io.fabric8.kubernetes.client..";
  private static final String ENGINE = "io.quotaflow.engine..";
  // Every package of the admission module: the transport (http), its doors (machine, people) and
  // what they share (endpoint, state, inflight); the core's rules are io.quotaflow.rules.
  private static final String PLUGIN = "io.quotaflow.admission..";
  private static final String[] CONNECTORS = {
    "io.quotaflow.cluster..",
    "io.quotaflow.connect..",
    "io.quotaflow.evict..",
    "io.quotaflow.source..",
    "io.quotaflow.status.."
  };
  private static final String[] COMMANDS = {"io.quotaflow.cli..", "io.quotaflow.local.."};

  private static JavaClasses moduleOf(final Class<?> member) {
    final Location location =
        Location.of(member.getProtectionDomain().getCodeSource().getLocation());
    final JavaClasses classes = new ClassFileImporter().importLocations(List.of(location));
    // An empty import would make every rule below pass without checking anything.
    assertThat(classes).as("classes of the module of %s", member.getName()).hasSizeGreaterThan(5);
    return classes;
  }

  @Test
  void quotaCoreUsesNoKafkaJettyKubernetesClientEngineOrPlugin() {
    final JavaClasses core = moduleOf(ClusterQuotaState.class);
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(KAFKA)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(JETTY)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(KUBERNETES_CLIENT, ENGINE, PLUGIN)
        .because("the quota core is pure Java: the engine and the plugin are built on it")
        .check(core);
  }

  @Test
  void quotaCoreKnowsNothingOfConnectorsOrCommands() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CONNECTORS)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(COMMANDS)
        .check(moduleOf(ClusterQuotaState.class));
  }

  @Test
  void engineDoesNotUseThePluginOrItsHttpServer() {
    engineRule().check(moduleOf(Engine.class));
  }

  @Test
  void theRulesCatchAViolation() {
    // The plugin does use Jetty and itself: the engine's rule must say so of the plugin's classes.
    assertThatThrownBy(() -> engineRule().check(moduleOf(AdmissionServer.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("org.eclipse.jetty");
  }

  private static ArchRule engineRule() {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PLUGIN)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(JETTY)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(COMMANDS)
        .because("the plugin answers from the engine's queries, never the other way round");
  }

  @Test
  void pluginDoesNotUseConnectorsOrCommands() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CONNECTORS)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(COMMANDS)
        .because("the commands in deploy wire the plugin and the engine together")
        .check(moduleOf(AdmissionServer.class));
  }

  @Test
  void connectorsDoNotUseThePluginOrCommands() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PLUGIN)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(COMMANDS)
        .check(moduleOf(ConnectCommand.class));
  }

  @Test
  void commandsForAClusterUseNeitherLocalNorTheBrokerNorTheDemoCluster() {
    // The production jar (dist) leaves these out: a link to them would fail there at run time.
    noClasses()
        .that()
        .resideInAPackage("io.quotaflow.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.quotaflow.local..",
            "io.quotaflow.broker..",
            "io.fabric8.mockwebserver..",
            "io.fabric8.kubernetes.client.server.mock..",
            "kafka..",
            "scala..")
        .because("dist's production jar has no local, broker or mock server")
        .check(moduleOf(Main.class));
  }

  @Test
  void schemasDependOnNoOtherQuotaflowModule() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.quotaflow.quota..",
            "io.quotaflow.tree..",
            "io.quotaflow.rules..",
            "io.quotaflow.eviction..",
            "io.quotaflow.kube..",
            "io.quotaflow.simulate..",
            ENGINE)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(CONNECTORS)
        .check(moduleOf(TopicCatalogue.class));
  }
}

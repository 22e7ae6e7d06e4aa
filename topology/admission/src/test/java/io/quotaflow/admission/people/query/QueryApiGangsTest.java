package io.quotaflow.admission.people.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.tree.QuotaOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The query API's {@code gangs} of a group (docs/semantics.md 21.4): simulate's summary of the
 * group's pods, with, live, the hold kept for a gang's members still to come; a tenant sees the
 * gangs of the groups whose pods it sees and no other.
 */
class QueryApiGangsTest {

  private static final String ADMIN = "admin-token";
  private static final String BOB = "beta-token";
  private static final List<String> GANG_FIELDS =
      List.of(
          "namespace",
          "name",
          "convention",
          "minMember",
          "members",
          "running",
          "pending",
          "terminating",
          "state",
          "held");

  /** admin may do everything; bob may list pods in beta, and nothing else. */
  private static final Access FAKE =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          return switch (token) {
            case ADMIN -> Optional.of(new User("admin", List.of("system:masters")));
            case BOB -> Optional.of(new User("bob", List.of("system:authenticated")));
            default -> Optional.empty();
          };
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return user.name().equals("admin")
              || (verb.equals("list") && resource.equals("pods") && namespace.equals("beta"));
        }
      };

  private SnapshotClusterState state;
  private AdmissionServer server;

  private static Gang gang(String name, int minMember) {
    return new Gang(name, OptionalInt.of(minMember), "koordinator");
  }

  private static QuotaPod member(String namespace, String name, String group, Gang gang) {
    return QuotaPod.builder(namespace, name)
        .quotaName(group)
        .request(ResourceList.of("cpu", 500))
        .gang(gang)
        .build();
  }

  @BeforeEach
  void start() {
    final Gang train = gang("train", 2);
    final Gang job = new Gang("job", OptionalInt.empty(), "volcano");
    state =
        TestClusters.state(
            TestClusters.east()
                .pod(member("alpha", "train-1", "team-a", train).toBuilder().running("n").build())
                .pod(member("alpha", "train-2", "team-a", train))
                .pod(member("alpha", "mpi-0", "team-a", gang("mpi", 3)))
                .pod(member("beta", "job-0", "team-b", job)));
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state)
            .auth(ApiAuth.with(FAKE))
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aGroupListsItsGangsByNameWithSimulatesFieldsAndWhetherTheirRoomIsHeld() {
    final JsonNode gangs = group("team-a", ADMIN).get("quota").get("gangs");

    assertThat(gangs).hasSize(2);
    assertThat(fields(gangs.get(0))).containsExactlyElementsOf(GANG_FIELDS);
    assertThat(gangs.get(0).toString())
        .isEqualTo(
            "{\"namespace\":\"alpha\",\"name\":\"mpi\",\"convention\":\"koordinator\","
                + "\"minMember\":3,\"members\":1,\"running\":0,\"pending\":1,\"terminating\":0,"
                + "\"state\":\"waiting\",\"held\":null}");
    assertThat(gangs.get(1).get("name").asText()).isEqualTo("train");
    assertThat(gangs.get(1).get("running").asInt()).isEqualTo(1);
    assertThat(gangs.get(1).get("state").asText()).isEqualTo("incomplete");
  }

  @Test
  void aGangWhoseFirstMemberWasAdmittedIsAdmittedWithTheRoomHeldForTheOthers() {
    final QuotaPod first = member("alpha", "mpi-0", "team-a", gang("mpi", 3));
    final ClusterView view = state.cluster("east").orElseThrow();
    final Instant now = Instant.now();
    final boolean allowed =
        server
            .holds()
            .of("east")
            .decide(
                AdmissionRequest.of(first, view.directory(), QuotaOptions.DEFAULTS),
                first.gang(),
                view,
                QuotaOptions.DEFAULTS,
                now,
                Occasion.SCHEDULE)
            .allowed();
    assertThat(allowed).as("three members of 500m fit team-a").isTrue();

    final JsonNode mpi = group("team-a", ADMIN).get("quota").get("gangs").get(0);
    assertThat(mpi.get("name").asText()).isEqualTo("mpi");
    assertThat(mpi.get("state").asText()).isEqualTo("admitted");
    assertThat(mpi.get("held").get("membersToCome").asInt()).isEqualTo(2);
    assertThat(mpi.get("held").get("request").toString()).isEqualTo("{\"cpu\":1000}");
    assertThat(mpi.get("held").get("expiresAt").asLong())
        .isEqualTo(now.plusSeconds(60).toEpochMilli());
    final JsonNode train = group("team-a", ADMIN).get("quota").get("gangs").get(1);
    assertThat(train.get("held").isNull()).as("another gang holds nothing").isTrue();

    // A second member takes its part: room for one more is held.
    final QuotaPod second = member("alpha", "mpi-1", "team-a", gang("mpi", 3));
    assertThat(
            server
                .holds()
                .of("east")
                .decide(
                    AdmissionRequest.of(second, view.directory(), QuotaOptions.DEFAULTS),
                    second.gang(),
                    view,
                    QuotaOptions.DEFAULTS,
                    now,
                    Occasion.CREATE)
                .allowed())
        .isTrue();
    final JsonNode after = group("team-a", ADMIN).get("quota").get("gangs").get(0);
    assertThat(after.get("held").get("membersToCome").asInt()).isEqualTo(1);
    assertThat(after.get("held").get("request").toString()).isEqualTo("{\"cpu\":500}");
  }

  @Test
  void aGroupWithoutGangsHasNoGangsField() {
    assertThat(group("ops", ADMIN).get("quota").has("gangs")).isFalse();
    assertThat(group("research", ADMIN).get("quota").has("gangs")).isFalse();
  }

  @Test
  void aTenantSeesTheGangsOfItsGroupOnlyAndTheWebViewsDetailShowsTheSame() {
    final JsonNode teamB = group("team-b", BOB);
    final HttpResponse<String> teamA = get("/api/v1/clusters/east/quotas/team-a", BOB);
    final HttpResponse<String> tree = get("/api/v1/clusters/east/quotas", BOB);
    final HttpResponse<String> detail = get("/api/v1/clusters/east/view/groups/team-b", BOB);

    assertThat(teamB.get("quota").get("gangs").get(0).get("name").asText()).isEqualTo("job");
    assertThat(teamB.get("quota").get("gangs").get(0).get("minMember").isNull()).isTrue();
    assertThat(teamA.statusCode()).isEqualTo(404);
    assertThat(teamA.body()).doesNotContain("train").doesNotContain("mpi");
    assertThat(tree.body()).doesNotContain("train").doesNotContain("mpi");
    assertThat(get("/api/v1/clusters/east/view/groups/team-a", BOB).statusCode()).isEqualTo(404);
    assertThat(detail.statusCode()).isEqualTo(200);
    assertThat(tree(detail.body()).get("gangs")).isEqualTo(teamB.get("quota").get("gangs"));
  }

  private JsonNode group(String name, String token) {
    final HttpResponse<String> response = get("/api/v1/clusters/east/quotas/" + name, token);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return tree(response.body());
  }

  private HttpResponse<String> get(String path, String token) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                  .header("Authorization", "Bearer " + token)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode tree(String body) {
    try {
      return Json.MAPPER.readTree(body);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  private static List<String> fields(JsonNode node) {
    final List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}

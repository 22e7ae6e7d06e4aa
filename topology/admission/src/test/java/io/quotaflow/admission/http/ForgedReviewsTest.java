package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.http.tls.PemFiles;
import io.quotaflow.admission.machine.denials.DenialLog;
import io.quotaflow.admission.machine.denials.DeniedPods;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, point 7, tried as an attacker would: a pod that reaches the admission port must not
 * hold another team's quota, write denials into the history or pass for a peer. A plugin that
 * listens beyond loopback without a callers' CA does not start unless unauthenticated callers are
 * explicitly allowed, and their reviews are then answered but hold and record nothing; a peer is
 * known by the peers' URI name on a certificate of quotaflow's own CA, not by its subject and
 * issuer.
 */
class ForgedReviewsTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  @TempDir static Path dir;

  /** Plain HTTP on every interface, no callers' CA, unauthenticated callers allowed. */
  private static AdmissionServer open;

  private static final List<DenialLog.Entry> openDenials = new CopyOnWriteArrayList<>();

  /** HTTPS with quotaflow's CA for peers and the cluster's CA for callers, callers allowed. */
  private static AdmissionServer certified;

  @BeforeAll
  static void start() {
    open =
        AdmissionServer.builder(
                PluginSettings.config(
                    Map.of(
                        PluginSettings.PLAIN_HTTP.key(), "true",
                        PluginSettings.BIND_ADDRESS.key(), "0.0.0.0",
                        PluginSettings.PORT.key(), "0")),
                TestClusters.state())
            .allowUnauthenticatedWebhooks(true)
            .denials(openDenials::add)
            .build()
            .start();

    final TestCertificates.Issued quotaflowCa = TestCertificates.issueCa(10, "quotaflow-ca");
    final TestCertificates.Issued clusterCa = TestCertificates.issueCa(11, "kubernetes");
    TestCertificates.writeCertificate(quotaflowCa, dir.resolve("quotaflow-ca.crt"));
    TestCertificates.writeCertificate(clusterCa, dir.resolve("cluster-ca.crt"));
    final TestCertificates.Issued own =
        TestCertificates.issueBy(quotaflowCa, 12, "quotaflow-admission", true);
    TestCertificates.write(own, dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
    // Another instance's certificate: the same CA, the peers' name.
    write(TestCertificates.issueBy(quotaflowCa, 13, "quotaflow-admission", true), "peer");
    write(TestCertificates.issueBy(clusterCa, 14, "kube-apiserver", false), "apiserver");
    // The plugin's subject and issuer without the peers' name (any Certificate of the Issuer).
    write(TestCertificates.issueBy(quotaflowCa, 15, "quotaflow-admission", false), "impostor");
    // The peers' name on a certificate the callers' CA signed: not quotaflow's own.
    write(TestCertificates.issueBy(clusterCa, 16, "quotaflow-admission", true), "foreign");
    certified =
        AdmissionServer.builder(
                PluginSettings.config(
                    Map.of(
                        PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
                        PluginSettings.PORT.key(), "0",
                        PluginSettings.TLS_CERT_FILE.key(), dir.resolve("tls.crt").toString(),
                        PluginSettings.TLS_KEY_FILE.key(), dir.resolve("tls.key").toString(),
                        PluginSettings.TLS_TRUST_FILE.key(),
                            dir.resolve("quotaflow-ca.crt").toString(),
                        PluginSettings.TLS_CLIENT_CA_FILE.key(),
                            dir.resolve("cluster-ca.crt").toString())),
                TestClusters.state())
            .allowUnauthenticatedWebhooks(true)
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    for (final AdmissionServer server : new AdmissionServer[] {open, certified}) {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void aPluginOpenToTheNetworkWithoutACallersCaDoesNotStart() {
    final Map<String, String> settings =
        Map.of(
            PluginSettings.PLAIN_HTTP.key(), "true",
            PluginSettings.BIND_ADDRESS.key(), "0.0.0.0",
            PluginSettings.PORT.key(), "0");

    assertThatThrownBy(
            () ->
                AdmissionServer.builder(PluginSettings.config(settings), TestClusters.state())
                    .build()
                    .start()
                    .close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("admission.tls.client.ca.file is not set")
        .hasMessageContaining("admission.allow.unauthenticated.webhooks=true");
    assertThatThrownBy(() -> PluginSettings.requireAuthenticatedCallers(settings))
        .hasMessageContaining("admission.allow.unauthenticated.webhooks=true");
    // On loopback only this machine calls (quotaflow local); allowed explicitly, it starts.
    PluginSettings.requireAuthenticatedCallers(
        Map.of(PluginSettings.PLAIN_HTTP.key(), "true", "admission.bind.address", "127.0.0.1"));
    PluginSettings.requireAuthenticatedCallers(
        Map.of(
            PluginSettings.PLAIN_HTTP.key(),
            "true",
            PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key(),
            "true"));
  }

  @Test
  void anUnauthenticatedReviewIsAnsweredButHoldsNoQuota() throws Exception {
    final String all = TestClusters.room(TestClusters.state(), "team-b") + "m";
    final HttpResponse<String> response =
        post(plain(), open, PODS, createPod("squat", pod("beta", "b-1").quota("team-b").cpu(all)));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("\"allowed\":true");
    assertThat(open.holds().of("east").heldAt("team-b")).isEmpty();
    // The room the forger asked for is still there for the team.
    final HttpResponse<String> again =
        post(plain(), open, PODS, createPod("again", pod("beta", "b-2").quota("team-b").cpu(all)));
    assertThat(again.body()).contains("\"allowed\":true");
  }

  @Test
  void anUnauthenticatedFilterCallHoldsNoQuota() throws Exception {
    final HttpResponse<String> response =
        post(
            plain(),
            open,
            FILTER,
            Reviews.filterArgsWithNames(
                pod("beta", "b-3")
                    .quota("team-b")
                    .cpu(TestClusters.room(TestClusters.state(), "team-b") + "m"),
                "n1"));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("\"NodeNames\":[\"n1\"]");
    assertThat(open.holds().of("east").heldAt("team-b")).isEmpty();
  }

  @Test
  void anUnauthenticatedReviewWritesNoDenialToTheHistory() throws Exception {
    final HttpResponse<String> response =
        post(plain(), open, PODS, createPod("fake", pod("beta", "b-4").quota("team-b").cpu("90")));

    assertThat(response.body()).contains("\"allowed\":false");
    assertThat(openDenials).noneMatch(entry -> entry.pod().name().equals("b-4"));
    assertThat(open.activity().denials("east")).noneMatch(d -> d.pod().name().equals("b-4"));
    assertThat(open.registry().find(DeniedPods.DENIED).counters()).isEmpty();
    assertThat(open.registry().scrape()).contains("endpoint=\"admission-pods-unauthenticated\"");
  }

  @Test
  void aCertifiedCallerStillHoldsWhereUncertifiedOnesAreJudgedOnly() throws Exception {
    final HttpResponse<String> anonymous =
        post(
            anonymous(),
            certified,
            PODS,
            createPod("anon", pod("beta", "b-5").quota("team-b").cpu("1")));
    final HttpResponse<String> apiServer =
        post(
            as("apiserver"),
            certified,
            PODS,
            createPod("real", pod("beta", "b-6").quota("team-b").cpu("1")));

    assertThat(anonymous.body()).contains("\"allowed\":true");
    assertThat(apiServer.body()).contains("\"allowed\":true");
    assertThat(certified.holds().of("east").heldAt("team-b"))
        .extracting(held -> held.pod().name())
        .contains("b-6")
        .doesNotContain("b-5");
  }

  @Test
  void aPeerIsKnownByThePeersNameOnACertificateOfQuotaflowsCa() throws Exception {
    // For a cluster nobody holds, a forwarded request's answer says it was undecided, so that the
    // forwarding instance may answer from its own last state.
    final String review = createPod("f", pod("beta", "b-7").quota("team-b").cpu("1"));
    final String nowhere = "/clusters/nowhere/admission/pods";

    assertThat(undecided(post(as("peer"), certified, nowhere, review, true))).isTrue();
    assertThat(undecided(post(as("impostor"), certified, nowhere, review, true)))
        .as("the plugin's subject and issuer without the peers' name")
        .isFalse();
    assertThat(undecided(post(as("foreign"), certified, nowhere, review, true)))
        .as("the peers' name signed by the callers' CA, not quotaflow's")
        .isFalse();
    assertThat(undecided(post(as("apiserver"), certified, nowhere, review, true))).isFalse();
  }

  @Test
  void aReviewAPeerForwardsForAnUnauthenticatedCallerHoldsNothingAtTheOwner() throws Exception {
    final HttpRequest request =
        request(
                certified,
                PODS,
                createPod("fwd", pod("beta", "b-8").quota("team-b").cpu("1")),
                true)
            .header(CallerPolicy.JUDGED_ONLY_HEADER, "true")
            .build();

    final HttpResponse<String> response =
        as("peer").send(request, HttpResponse.BodyHandlers.ofString());

    assertThat(response.body()).contains("\"allowed\":true");
    assertThat(certified.holds().of("east").heldAt("team-b"))
        .noneMatch(held -> held.pod().name().equals("b-8"));
  }

  private static boolean undecided(HttpResponse<String> response) {
    return response.headers().firstValue(Forwarder.UNDECIDED_HEADER).isPresent();
  }

  private static void write(TestCertificates.Issued issued, String name) {
    TestCertificates.write(issued, dir.resolve(name + ".crt"), dir.resolve(name + ".key"), false);
  }

  private static HttpClient plain() {
    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static HttpClient anonymous() throws Exception {
    return client(PemFiles.trusting(dir.resolve("quotaflow-ca.crt")));
  }

  private static HttpClient as(String name) throws Exception {
    return client(
        PemFiles.clientContext(
            dir.resolve(name + ".crt"),
            dir.resolve(name + ".key"),
            dir.resolve("quotaflow-ca.crt")));
  }

  private static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder()
        .sslContext(context)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static HttpResponse<String> post(
      HttpClient client, AdmissionServer server, String path, String body) throws Exception {
    return post(client, server, path, body, false);
  }

  private static HttpResponse<String> post(
      HttpClient client, AdmissionServer server, String path, String body, boolean forwarded)
      throws Exception {
    return client.send(
        request(server, path, body, forwarded).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder request(
      AdmissionServer server, String path, String body, boolean forwarded) {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.scheme() + "://localhost:" + server.port() + path))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (forwarded) {
      request.header(Call.FORWARDED_HEADER, "true");
    }
    return request;
  }
}

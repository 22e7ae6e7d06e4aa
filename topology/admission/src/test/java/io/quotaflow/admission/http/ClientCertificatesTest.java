package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.http.tls.PemFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, point 2, tried as an attacker would: with {@code admission.tls.client.ca.file} set, the
 * webhooks and the scheduler filter answer only callers with a client certificate the callers' CA
 * verifies (the API server's, the scheduler's). A forged review without one is refused and holds
 * nothing; a certificate of another CA does not get through the handshake; only a peer (this
 * plugin's own certificate) may mark a request as forwarded.
 */
class ClientCertificatesTest {

  private static final String PODS = "/clusters/east/admission/pods";

  // Keys are slow to generate: one set and one server for the class.
  @TempDir static Path dir;
  private static AdmissionServer server;

  @BeforeAll
  static void start() {
    final TestCertificates.Issued own = TestCertificates.issuePeer(1);
    TestCertificates.write(own, dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
    final TestCertificates.Issued apiServer = TestCertificates.issue(2, "kube-apiserver");
    TestCertificates.write(
        apiServer, dir.resolve("apiserver.crt"), dir.resolve("apiserver.key"), false);
    final TestCertificates.Issued intruder = TestCertificates.issue(3, "kube-apiserver");
    TestCertificates.write(
        intruder, dir.resolve("intruder.crt"), dir.resolve("intruder.key"), false);
    server =
        AdmissionServer.builder(
                PluginSettings.config(
                    Map.of(
                        PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
                        PluginSettings.PORT.key(), "0",
                        PluginSettings.TLS_CERT_FILE.key(), dir.resolve("tls.crt").toString(),
                        PluginSettings.TLS_KEY_FILE.key(), dir.resolve("tls.key").toString(),
                        // The callers' CA: here the API server's self-signed certificate.
                        PluginSettings.TLS_CLIENT_CA_FILE.key(),
                            dir.resolve("apiserver.crt").toString())),
                TestClusters.state())
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aForgedReviewWithoutAClientCertificateIsRefusedAndHoldsNothing() throws Exception {
    final HttpResponse<String> response =
        post(anonymous(), PODS, createPod("forged", pod("beta", "b-9").quota("team-b").cpu("1")));

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).contains("admission.tls.client.ca.file");
    assertThat(server.holds().of("east").heldAt("team-b"))
        .noneMatch(held -> held.pod().name().equals("b-9"));
  }

  @Test
  void theApiServersReviewIsJudgedAsBefore() throws Exception {
    final HttpResponse<String> response =
        post(
            as("apiserver"), PODS, createPod("real", pod("beta", "b-10").quota("team-b").cpu("1")));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("\"allowed\":true");
    assertThat(server.holds().of("east").heldAt("team-b"))
        .anyMatch(held -> held.pod().name().equals("b-10"));
  }

  @Test
  void aCertificateOfAnotherCaDoesNotGetThroughTheHandshake() {
    assertThatThrownBy(
            () ->
                post(
                    as("intruder"),
                    PODS,
                    createPod("intruder", pod("beta", "b-11").quota("team-b").cpu("1"))))
        .isInstanceOf(IOException.class);
  }

  @Test
  void theSchedulerFilterAndTheQuotaWebhookNeedACertificateToo() throws Exception {
    assertThat(post(anonymous(), "/clusters/east/scheduler/filter", "{}").statusCode())
        .isEqualTo(401);
    assertThat(post(anonymous(), "/clusters/east/admission/quotas", "{}").statusCode())
        .isEqualTo(401);
  }

  @Test
  void readsAndProbesNeedNoCertificate() throws Exception {
    assertThat(get(anonymous(), "/healthz").statusCode()).isEqualTo(200);
    assertThat(get(anonymous(), "/api/v1/clusters").statusCode()).isEqualTo(200);
  }

  @Test
  void onlyAPeerMayMarkARequestAsForwarded() throws Exception {
    // For a cluster nobody holds, a forwarded request's answer says it was undecided, so that the
    // forwarding instance may answer from its own last state.
    final String review = createPod("f", pod("beta", "b-12").quota("team-b").cpu("1"));
    final String nowhere = "/clusters/nowhere/admission/pods";

    final HttpResponse<String> fromApiServer = post(as("apiserver"), nowhere, review, true);
    final HttpResponse<String> fromPeer = post(as("tls"), nowhere, review, true);

    assertThat(fromApiServer.headers().firstValue(Forwarder.UNDECIDED_HEADER)).isEmpty();
    assertThat(fromPeer.headers().firstValue(Forwarder.UNDECIDED_HEADER)).contains("true");
  }

  private static HttpClient anonymous() throws Exception {
    return client(PemFiles.trusting(dir.resolve("tls.crt")));
  }

  private static HttpClient as(String name) throws Exception {
    return client(
        PemFiles.clientContext(
            dir.resolve(name + ".crt"), dir.resolve(name + ".key"), dir.resolve("tls.crt")));
  }

  private static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder()
        .sslContext(context)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static HttpResponse<String> post(HttpClient client, String path, String body)
      throws Exception {
    return post(client, path, body, false);
  }

  private static HttpResponse<String> post(
      HttpClient client, String path, String body, boolean forwarded) throws Exception {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (forwarded) {
      request.header(Call.FORWARDED_HEADER, "true");
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(HttpClient client, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

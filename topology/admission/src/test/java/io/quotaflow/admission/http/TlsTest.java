package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTest {

  @TempDir Path dir;
  private AdmissionServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private PluginConfig tlsConfig() {
    return PluginSettings.config(
        Map.of(
            PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
            PluginSettings.PORT.key(), "0",
            PluginSettings.TLS_CERT_FILE.key(), dir.resolve("tls.crt").toString(),
            PluginSettings.TLS_KEY_FILE.key(), dir.resolve("tls.key").toString(),
            PluginSettings.TLS_RELOAD_INTERVAL.key(), "50ms"));
  }

  /** The serial of the certificate the server presents to a new connection, after a 200. */
  private BigInteger servedSerial(SSLContext trust) throws Exception {
    final HttpClient client = HttpClient.newBuilder().sslContext(trust).build();
    final HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/healthz"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    final X509Certificate served =
        (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    return served.getSerialNumber();
  }

  @Test
  void servesHttpsFromPemFilesWithAPkcs1Key() throws Exception {
    final TestCertificates.Issued first = TestCertificates.issue(1);
    TestCertificates.write(first, dir.resolve("tls.crt"), dir.resolve("tls.key"), true);

    server = AdmissionServer.builder(tlsConfig(), TestClusters.state()).build().start();

    assertThat(server.scheme()).isEqualTo("https");
    assertThat(servedSerial(TestCertificates.trusting(first.certificate())))
        .isEqualTo(BigInteger.ONE);
  }

  @Test
  void aRenewedCertificateIsServedWithoutARestart() throws Exception {
    final TestCertificates.Issued first = TestCertificates.issue(1);
    final TestCertificates.Issued second = TestCertificates.issue(2);
    TestCertificates.write(first, dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
    server = AdmissionServer.builder(tlsConfig(), TestClusters.state()).build().start();
    final SSLContext trustBoth =
        TestCertificates.trusting(first.certificate(), second.certificate());
    assertThat(servedSerial(trustBoth)).isEqualTo(BigInteger.ONE);

    TestCertificates.write(second, dir.resolve("tls.crt"), dir.resolve("tls.key"), false);

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(servedSerial(trustBoth)).isEqualTo(BigInteger.TWO));
    assertThat(server.certificateReloads()).isEqualTo(1);
  }

  @Test
  void anUnreadableRenewalKeepsTheCurrentCertificate() throws Exception {
    final TestCertificates.Issued first = TestCertificates.issue(1);
    TestCertificates.write(first, dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
    server = AdmissionServer.builder(tlsConfig(), TestClusters.state()).build().start();

    Files.writeString(dir.resolve("tls.key"), "not a key", StandardCharsets.US_ASCII);

    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(2))
        .untilAsserted(
            () ->
                assertThat(servedSerial(TestCertificates.trusting(first.certificate())))
                    .isEqualTo(BigInteger.ONE));
    assertThat(server.certificateReloads()).isZero();
  }

  @Test
  void plainHttpMustBeAskedForExplicitly() {
    assertThatThrownBy(() -> PluginSettings.config(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("admission.tls.cert.file")
        .hasMessageContaining("admission.plain.http=true");
  }
}

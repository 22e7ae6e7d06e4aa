package io.quotaflow.bench.admission;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for localhost made with the JDK's keytool (run as a process), written
 * as the PEM pair cert-manager would mount: {@code tls.crt} and a PKCS#8 {@code tls.key}.
 */
final class LoopbackCertificate {

  private static final String PASSWORD = "bench-only";

  private LoopbackCertificate() {}

  /** Writes {@code tls.crt} and {@code tls.key} into {@code dir}. */
  static void write(Path dir) throws IOException, GeneralSecurityException, InterruptedException {
    final Path store = dir.resolve("bench.p12");
    final Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    final Process process =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias",
                    "bench",
                    "-keyalg",
                    "RSA",
                    "-keysize",
                    "2048",
                    "-validity",
                    "2",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=dns:localhost,ip:127.0.0.1",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    PASSWORD,
                    "-keypass",
                    PASSWORD))
            .redirectErrorStream(true)
            .start();
    final String output =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    final KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    final Key key = keys.getKey("bench", PASSWORD.toCharArray());
    final Certificate certificate = keys.getCertificate("bench");
    Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", certificate.getEncoded()));
    Files.writeString(dir.resolve("tls.key"), pem("PRIVATE KEY", key.getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}

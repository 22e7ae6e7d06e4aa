package io.quotaflow.admission.http.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a certificate from PEM files and swaps it in when the files change, without a restart:
 * cert-manager renews a certificate by rewriting the mounted secret (an atomic symlink swap), so
 * the files' content is compared every interval, and a changed pair is loaded and handed to Jetty's
 * {@link SslContextFactory#reload}. A pair that cannot be read (e.g. caught between the two writes)
 * keeps the current certificate and is tried again at the next check.
 */
public final class CertificateReloader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CertificateReloader.class);
  private static final char[] PASSWORD = "quotaflow".toCharArray();

  private final Path certificate;
  private final Path key;
  private final List<Path> watched;
  private final List<Path> clientTrust;
  private final SslContextFactory.Server factory;
  private final Runnable onReload;
  private final AtomicLong reloads = new AtomicLong();
  private final ScheduledExecutorService scheduler;
  private byte[] digest;

  /**
   * Loads the pair now and checks it every {@code intervalMillis}.
   *
   * @param trust a further file whose change counts as a change (the trust bundle); may be null
   * @param onReload run after each successful reload (e.g. to refresh clients)
   * @throws IOException or GeneralSecurityException when the initial pair cannot be read
   */
  public CertificateReloader(
      Path certificate, Path key, Path trust, long intervalMillis, Runnable onReload)
      throws IOException, GeneralSecurityException {
    this(certificate, key, trust, List.of(), intervalMillis, onReload);
  }

  /**
   * As above, and asking clients for a certificate, verified against {@code clientTrust} (the
   * callers' CA, and this plugin's own trust bundle for its peers): a client that presents none is
   * let through the handshake, and the endpoints that need one refuse it (issue 25).
   *
   * @param clientTrust files of the certificates client certificates are verified against; empty:
   *     clients are not asked for one
   */
  public CertificateReloader(
      Path certificate,
      Path key,
      Path trust,
      List<Path> clientTrust,
      long intervalMillis,
      Runnable onReload)
      throws IOException, GeneralSecurityException {
    this.certificate = certificate;
    this.key = key;
    final List<Path> files = new java.util.ArrayList<>(List.of(certificate, key));
    if (trust != null) {
      files.add(trust);
    }
    files.addAll(clientTrust);
    this.watched = List.copyOf(files);
    this.clientTrust = List.copyOf(clientTrust);
    this.onReload = onReload;
    this.factory = new SslContextFactory.Server();
    this.factory.setKeyStore(PemFiles.keyStore(certificate, key, PASSWORD));
    if (!this.clientTrust.isEmpty()) {
      this.factory.setWantClientAuth(true);
      this.factory.setTrustStore(PemFiles.trustStore(this.clientTrust));
    }
    this.factory.setKeyStorePassword(new String(PASSWORD));
    this.factory.setKeyManagerPassword(new String(PASSWORD));
    this.digest = digest();
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-admission-cert-reload");
              thread.setDaemon(true);
              return thread;
            });
    scheduler.scheduleWithFixedDelay(
        this::checkQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** The TLS context factory to give the server connector. */
  public SslContextFactory.Server factory() {
    return factory;
  }

  /** How many times a changed certificate was loaded. */
  public long reloads() {
    return reloads.get();
  }

  /** Checks the files now; returns whether a new certificate was loaded. */
  public synchronized boolean check() throws IOException, GeneralSecurityException {
    final byte[] current = digest();
    if (Arrays.equals(current, digest)) {
      return false;
    }
    final KeyStore store = PemFiles.keyStore(certificate, key, PASSWORD);
    final KeyStore clients = clientTrust.isEmpty() ? null : PemFiles.trustStore(clientTrust);
    try {
      factory.reload(
          f -> {
            f.setKeyStore(store);
            if (clients != null) {
              f.setTrustStore(clients);
            }
          });
    } catch (Exception e) {
      throw new GeneralSecurityException("the new certificate could not be installed", e);
    }
    digest = current;
    reloads.incrementAndGet();
    LOG.info("admission TLS certificate reloaded from {}", certificate);
    onReload.run();
    return true;
  }

  private void checkQuietly() {
    try {
      check();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      LOG.warn("admission TLS certificate not reloaded (kept the current one): {}", e.toString());
    }
  }

  private byte[] digest() throws IOException {
    try {
      final MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (final Path path : watched) {
        sha.update(Files.readAllBytes(path));
        sha.update((byte) 0);
      }
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

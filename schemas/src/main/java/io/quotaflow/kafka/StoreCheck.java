package io.quotaflow.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.SslConfigs;

/**
 * The part of {@link KafkaSecurity} that checks the trust store and the key store: each named file
 * is readable and opens as its type with its password, and a key store holds a private key.
 */
final class StoreCheck {

  private StoreCheck() {}

  /** Adds the problems of both stores to {@code problems}. */
  static void check(final Map<String, String> settings, final List<String> problems) {
    checkStore(settings, Store.TRUST, problems);
    checkStore(settings, Store.KEY, problems);
  }

  /** The keys of the trust store and of the key store. */
  private enum Store {
    TRUST(
        SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
        SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG,
        SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG),
    KEY(
        SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG,
        SslConfigs.SSL_KEYSTORE_TYPE_CONFIG,
        SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG);

    private final String location;
    private final String type;
    private final String password;

    Store(final String location, final String type, final String password) {
      this.location = location;
      this.type = type;
      this.password = password;
    }
  }

  private static void checkStore(
      final Map<String, String> settings, final Store store, final List<String> problems) {
    final String location = settings.getOrDefault(store.location, "").trim();
    if (location.isEmpty()) {
      return;
    }
    final Path file = Path.of(location);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      problems.add(
          store.location
              + " names "
              + location
              + ", which is not a readable file (is the Secret mounted there?)");
      return;
    }
    final String type =
        settings
            .getOrDefault(store.type, SslConfigs.DEFAULT_SSL_TRUSTSTORE_TYPE)
            .trim()
            .toUpperCase(Locale.ROOT);
    final Optional<String> password =
        Optional.ofNullable(settings.get(store.password)).filter(text -> !text.isEmpty());
    if (type.equals("PEM")) {
      checkPem(file, store, problems);
      return;
    }
    if (store == Store.KEY && password.isEmpty()) {
      problems.add(
          store.location + " is a " + type + " store but " + store.password + " is not set");
      return;
    }
    final KeyStore keyStore;
    try (InputStream in = Files.newInputStream(file)) {
      keyStore = KeyStore.getInstance(type);
      keyStore.load(in, password.map(String::toCharArray).orElse(null));
    } catch (IOException | GeneralSecurityException e) {
      problems.add(
          store.location
              + " "
              + location
              + " does not open as a "
              + type
              + " store"
              + (password.isPresent() ? " with " + store.password : "")
              + " ("
              + store.type
              + "): "
              + reason(e));
      return;
    }
    if (store == Store.KEY && !hasPrivateKey(keyStore)) {
      problems.add(store.location + " " + location + " holds no private key");
    }
  }

  private static void checkPem(final Path file, final Store store, final List<String> problems) {
    final String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      problems.add(store.location + " " + file + " cannot be read: " + reason(e));
      return;
    }
    if (store == Store.KEY && !text.contains("PRIVATE KEY-----")) {
      problems.add(store.location + " " + file + " is PEM without a private key");
    }
    try (InputStream in = Files.newInputStream(file)) {
      if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
        problems.add(store.location + " " + file + " is PEM without a certificate");
      }
    } catch (IOException | GeneralSecurityException e) {
      problems.add(
          store.location + " " + file + " holds no readable PEM certificate: " + reason(e));
    }
  }

  private static boolean hasPrivateKey(final KeyStore store) {
    try {
      for (final String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          return true;
        }
      }
      return false;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static String reason(final Exception e) {
    final String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}

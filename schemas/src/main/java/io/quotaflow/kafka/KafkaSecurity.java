package io.quotaflow.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * Checks the TLS and SASL settings of a Kafka client configuration before any client starts, so
 * that a mistake is reported at start-up in one message naming the settings, instead of as a client
 * that retries forever or fails deep inside Kafka: an unknown protocol, a trust or key store that
 * is missing or does not open with its password, a SASL mechanism without its JAAS configuration,
 * TLS or SASL settings that the protocol would ignore. Values may be Kafka config provider
 * references (<code>${dir:/path:key}</code>): they are resolved as the clients resolve them. No
 * message ever contains a password or a JAAS configuration.
 *
 * <p>Only the top-level keys are checked; the prefixed ones of Kafka Streams ({@code producer.},
 * {@code consumer.}, ...) pass through unchecked.
 */
public final class KafkaSecurity {

  /** A config provider reference, {@code ${provider:path:key}}. */
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{[^}:]+:[^}]*}");

  /** Every setting checked, in the order of the documentation's table. */
  public static final List<SecuritySetting> SETTINGS =
      List.of(
          new SecuritySetting(
              CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
              "one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL (any case)."),
          new SecuritySetting(
              SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
              "only with SSL or SASL_SSL; a readable file that opens as ssl.truststore.type"
                  + " (JKS, PKCS12, or PEM certificates) with ssl.truststore.password."),
          new SecuritySetting(
              SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG,
              "only with SSL or SASL_SSL; a readable file that opens as ssl.keystore.type with"
                  + " ssl.keystore.password (required for JKS and PKCS12) and holds a private"
                  + " key."),
          new SecuritySetting(
              SaslConfigs.SASL_MECHANISM,
              "only with SASL_PLAINTEXT or SASL_SSL; one of PLAIN, SCRAM-SHA-256,"
                  + " SCRAM-SHA-512, OAUTHBEARER, GSSAPI."),
          new SecuritySetting(
              SaslConfigs.SASL_JAAS_CONFIG,
              "required with SASL_PLAINTEXT or SASL_SSL (unless the JVM has a JAAS file); one"
                  + " login module, the one of sasl.mechanism."));

  private KafkaSecurity() {}

  /**
   * Refuses a connection to Kafka that anyone on the network could read and write (issue 25):
   * {@code PLAINTEXT} or {@code SASL_PLAINTEXT} (the default protocol is {@code PLAINTEXT}) to a
   * broker that is not on this machine, unless {@code allowed}. Whoever reaches such a broker could
   * write eviction commands or poison the inputs.
   *
   * @param setting the name of the setting that allows it, for the message
   * @throws IllegalArgumentException naming the protocol, the brokers and how to fix it
   */
  public static void requireEncrypted(
      final Map<String, ?> kafka, final boolean allowed, final String setting) {
    final Object configured = kafka.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
    final String protocol =
        configured == null ? "PLAINTEXT" : configured.toString().trim().toUpperCase(Locale.ROOT);
    if (allowed || !protocol.endsWith("PLAINTEXT")) {
      return;
    }
    final Object servers = kafka.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    final List<String> brokers =
        servers == null
            ? List.of()
            : Arrays.stream(servers.toString().split(","))
                .map(String::trim)
                .filter(server -> !server.isEmpty())
                .toList();
    if (!brokers.isEmpty() && brokers.stream().allMatch(KafkaSecurity::isLoopback)) {
      return;
    }
    throw new IllegalArgumentException(
        "Kafka security.protocol is "
            + protocol
            + " to "
            + String.join(",", brokers)
            + ": anyone who reaches Kafka could read quotaflow's topics and write eviction commands"
            + " or inputs. Use SASL_SSL (deploy/kubernetes/components/kafka-scram-tls,"
            + " docs/operations.md), or set "
            + setting
            + "=true on a network you trust (docs/security.md).");
  }

  private static boolean isLoopback(final String server) {
    final int colon = server.lastIndexOf(':');
    final String host = colon > 0 ? server.substring(0, colon) : server;
    return host.equals("localhost")
        || host.startsWith("127.")
        || host.equals("[::1]")
        || host.equals("::1");
  }

  /**
   * Checks the settings.
   *
   * @param kafka Kafka client settings, as the configuration passes them to the clients
   * @throws IllegalArgumentException listing every problem, each naming its setting
   */
  public static void check(final Map<String, ?> kafka) {
    final List<String> problems = problems(kafka);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("Kafka security settings: " + String.join("; ", problems));
    }
  }

  /**
   * Every problem of the settings, each a sentence naming its setting; empty when they are fine.
   */
  public static List<String> problems(final Map<String, ?> kafka) {
    final Map<String, String> settings;
    try {
      settings = resolved(kafka);
    } catch (ConfigException e) {
      return List.of("a config provider reference cannot be resolved: " + e.getMessage());
    }
    final List<String> unresolved = unresolved(kafka, settings);
    if (!unresolved.isEmpty()) {
      // The other checks would only report the reference's text as a bad value.
      return unresolved;
    }
    final List<String> problems = new ArrayList<>();
    final String protocolText =
        settings.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT").trim();
    final Optional<SecurityProtocol> protocol = protocol(protocolText);
    if (protocol.isEmpty()) {
      problems.add(
          CommonClientConfigs.SECURITY_PROTOCOL_CONFIG
              + " '"
              + protocolText
              + "' is not a security protocol; expected one of "
              + SecurityProtocol.names());
      return problems;
    }
    final boolean tls =
        protocol.get() == SecurityProtocol.SSL || protocol.get() == SecurityProtocol.SASL_SSL;
    final boolean sasl =
        protocol.get() == SecurityProtocol.SASL_PLAINTEXT
            || protocol.get() == SecurityProtocol.SASL_SSL;
    if (tls) {
      StoreCheck.check(settings, problems);
    } else {
      for (final String key :
          List.of(
              SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG)) {
        if (settings.containsKey(key)) {
          problems.add(ignored(key, protocol.get(), "SSL or SASL_SSL"));
        }
      }
    }
    if (sasl) {
      SaslCheck.check(settings, protocol.get(), problems);
    } else {
      for (final String key : List.of(SaslConfigs.SASL_MECHANISM, SaslConfigs.SASL_JAAS_CONFIG)) {
        if (settings.containsKey(key)) {
          problems.add(ignored(key, protocol.get(), "SASL_PLAINTEXT or SASL_SSL"));
        }
      }
    }
    return List.copyOf(problems);
  }

  /** The settings as text, config provider references resolved as a client resolves them. */
  private static Map<String, String> resolved(final Map<String, ?> kafka) {
    final Map<String, Object> originals = new HashMap<>();
    kafka.forEach((key, value) -> originals.put(key, value == null ? null : value.toString()));
    final Map<String, String> resolved = new HashMap<>();
    new AbstractConfig(new ConfigDef(), originals, false)
        .originals()
        .forEach((key, value) -> resolved.put(key, value == null ? "" : value.toString()));
    return resolved;
  }

  /**
   * Settings whose config provider reference is still there after resolution: the provider found no
   * such file or key (Kafka leaves the reference as it is).
   */
  private static List<String> unresolved(
      final Map<String, ?> given, final Map<String, String> resolved) {
    final List<String> problems = new ArrayList<>();
    for (final Map.Entry<String, ?> entry : new TreeMap<>(given).entrySet()) {
      final Matcher reference = REFERENCE.matcher(String.valueOf(entry.getValue()));
      final String now = resolved.getOrDefault(entry.getKey(), "");
      while (reference.find()) {
        if (now.contains(reference.group())) {
          problems.add(
              entry.getKey()
                  + " refers to "
                  + reference.group()
                  + ", which its config provider cannot resolve (is the Secret mounted there?)");
        }
      }
    }
    return problems;
  }

  private static Optional<SecurityProtocol> protocol(final String text) {
    return Arrays.stream(SecurityProtocol.values())
        .filter(protocol -> protocol.name.equalsIgnoreCase(text))
        .findFirst();
  }

  private static String ignored(
      final String key, final SecurityProtocol protocol, final String needed) {
    return key
        + " is set but "
        + CommonClientConfigs.SECURITY_PROTOCOL_CONFIG
        + " is "
        + protocol.name
        + ", which ignores it; use "
        + needed;
  }
}

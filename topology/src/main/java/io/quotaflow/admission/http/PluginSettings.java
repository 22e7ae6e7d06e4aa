package io.quotaflow.admission.http;

import io.quotaflow.engine.config.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalogue of the admission plugin's settings (key, type, default, meaning). The keys share
 * the engine's configuration sources: a properties file, {@code QUOTAFLOW_ADMISSION_*} variables
 * and command-line options.
 */
public final class PluginSettings {

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  /** Whether the engine starts the plugin. */
  public static final Setting<Boolean> ENABLED =
      setting(
          "admission.enabled",
          "boolean",
          "true",
          "Whether the engine serves the admission plugin (webhooks, scheduler filter, query API).",
          PluginSettings::bool);

  /** Listen address. */
  public static final Setting<String> BIND_ADDRESS =
      setting(
          "admission.bind.address",
          "string",
          "0.0.0.0",
          "Address the plugin's HTTPS server listens on.",
          text -> text);

  /** Listen port. */
  public static final Setting<Integer> PORT =
      setting(
          "admission.port",
          "int",
          "8443",
          "Port of the plugin's server; 0 picks a free port. Kafka Streams' application.server must"
              + " name this port, so that other instances can forward requests here.",
          PluginSettings::port);

  /** PEM certificate chain. */
  public static final Setting<String> TLS_CERT_FILE =
      setting(
          "admission.tls.cert.file",
          "path",
          "",
          "PEM certificate chain served by the plugin (cert-manager's tls.crt); reloaded when it"
              + " changes.",
          text -> text);

  /** PEM private key. */
  public static final Setting<String> TLS_KEY_FILE =
      setting(
          "admission.tls.key.file",
          "path",
          "",
          "PEM private key of the certificate, PKCS#8 or PKCS#1 RSA (cert-manager's tls.key);"
              + " reloaded when it changes.",
          text -> text);

  /** PEM trust bundle for forwarding. */
  public static final Setting<String> TLS_TRUST_FILE =
      setting(
          "admission.tls.trust.file",
          "path",
          "",
          "PEM certificates trusted when forwarding to another instance (cert-manager's ca.crt);"
              + " empty: the served certificate chain itself.",
          text -> text);

  /** Reload check period. */
  public static final Setting<Duration> TLS_RELOAD_INTERVAL =
      setting(
          "admission.tls.reload.interval",
          "duration",
          "10s",
          "How often the certificate and key files are checked for a change.",
          PluginSettings::duration);

  /** Plain HTTP switch. */
  public static final Setting<Boolean> PLAIN_HTTP =
      setting(
          "admission.plain.http",
          "boolean",
          "false",
          "Serve plain HTTP instead of HTTPS. For local use only: the API server and the scheduler"
              + " call webhooks and extenders over TLS.",
          PluginSettings::bool);

  /** enforce | warn | off. */
  public static final Setting<AdmissionMode> MODE =
      setting(
          "admission.mode",
          "enforce|warn|off",
          "enforce",
          "enforce: deny pods that do not fit and invalid quota changes; warn: allow them with an"
              + " admission warning; off: allow everything.",
          text -> oneOf(AdmissionMode.class, text));

  /** fail-open | fail-closed. */
  public static final Setting<FailurePolicy> FAILURE_POLICY =
      setting(
          "admission.failure.policy",
          "fail-open|fail-closed",
          "fail-open",
          "Answer when the quota cannot be checked (rebalance, owner unreachable, unexpected"
              + " error): fail-open allows with a warning, fail-closed denies.",
          FailurePolicy::of);

  /** Namespaces never checked. */
  public static final Setting<Set<String>> EXCLUDED_NAMESPACES =
      setting(
          "admission.excluded.namespaces",
          "list",
          "kube-system",
          "Comma-separated namespaces whose pods are always admitted.",
          PluginSettings::names);

  /** Reservation lifetime. */
  public static final Setting<Duration> RESERVATION_TTL =
      setting(
          "admission.reservation.ttl",
          "duration",
          "30s",
          "How long an admitted pod's request is held against its groups at most, if the pod is not"
              + " seen as used before.",
          PluginSettings::duration);

  /** Reservation sweep period. */
  public static final Setting<Duration> SWEEP_INTERVAL =
      setting(
          "admission.reservation.sweep.interval",
          "duration",
          "250ms",
          "How often reservations are compared with the stores and expired.",
          PluginSettings::duration);

  /** Forwarding timeout. */
  public static final Setting<Duration> FORWARD_TIMEOUT =
      setting(
          "admission.forward.timeout",
          "duration",
          "1s",
          "How long a request forwarded to the instance owning the cluster may take before the"
              + " failure policy answers.",
          PluginSettings::duration);

  /** Every setting, in documentation order. */
  public static final List<Setting<?>> ALL =
      List.of(
          ENABLED,
          BIND_ADDRESS,
          PORT,
          TLS_CERT_FILE,
          TLS_KEY_FILE,
          TLS_TRUST_FILE,
          TLS_RELOAD_INTERVAL,
          PLAIN_HTTP,
          MODE,
          FAILURE_POLICY,
          EXCLUDED_NAMESPACES,
          RESERVATION_TTL,
          SWEEP_INTERVAL,
          FORWARD_TIMEOUT);

  private PluginSettings() {}

  /**
   * The configuration of {@code values} (keys of this catalogue; other keys are ignored), every
   * missing setting at its default.
   *
   * @throws IllegalArgumentException naming the setting when a value does not parse, or when TLS is
   *     neither configured nor explicitly turned off
   */
  public static PluginConfig config(Map<String, String> values) {
    final Function<Setting<?>, String> text =
        setting -> values.getOrDefault(setting.key(), setting.defaultValue());
    final String cert = TLS_CERT_FILE.parse(text.apply(TLS_CERT_FILE));
    final String key = TLS_KEY_FILE.parse(text.apply(TLS_KEY_FILE));
    final String trust = TLS_TRUST_FILE.parse(text.apply(TLS_TRUST_FILE));
    if (cert.isEmpty() != key.isEmpty()) {
      throw new IllegalArgumentException(
          TLS_CERT_FILE.key() + " and " + TLS_KEY_FILE.key() + " go together; set both or neither");
    }
    final Optional<PluginConfig.TlsFiles> tls =
        cert.isEmpty()
            ? Optional.empty()
            : Optional.of(
                new PluginConfig.TlsFiles(
                    Path.of(cert),
                    Path.of(key),
                    trust.isEmpty() ? Optional.empty() : Optional.of(Path.of(trust)),
                    TLS_RELOAD_INTERVAL.parse(text.apply(TLS_RELOAD_INTERVAL))));
    return new PluginConfig(
        BIND_ADDRESS.parse(text.apply(BIND_ADDRESS)),
        PORT.parse(text.apply(PORT)),
        tls,
        PLAIN_HTTP.parse(text.apply(PLAIN_HTTP)),
        MODE.parse(text.apply(MODE)),
        FAILURE_POLICY.parse(text.apply(FAILURE_POLICY)),
        EXCLUDED_NAMESPACES.parse(text.apply(EXCLUDED_NAMESPACES)),
        RESERVATION_TTL.parse(text.apply(RESERVATION_TTL)),
        SWEEP_INTERVAL.parse(text.apply(SWEEP_INTERVAL)),
        FORWARD_TIMEOUT.parse(text.apply(FORWARD_TIMEOUT)));
  }

  /** Whether {@code values} turn the plugin on (the default). */
  public static boolean enabled(Map<String, String> values) {
    return ENABLED.parse(values.getOrDefault(ENABLED.key(), ENABLED.defaultValue()));
  }

  private static <T> Setting<T> setting(
      String key, String type, String defaultValue, String doc, Function<String, T> parser) {
    return new Setting<>(key, type, defaultValue, doc, parser);
  }

  private static boolean bool(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  private static int port(String text) {
    final int port = Integer.parseInt(text);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("expected a port between 0 and 65535");
    }
    return port;
  }

  /** {@code 250ms}, {@code 30s}, {@code 2m}, {@code 1h}, or milliseconds; positive. */
  private static Duration duration(String text) {
    final Matcher matcher = DURATION.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException("expected a duration such as 250ms, 30s or 2m");
    }
    final long amount = Long.parseLong(matcher.group(1));
    final String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
    final Duration duration =
        switch (unit) {
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofMillis(amount);
        };
    if (duration.isZero()) {
      throw new IllegalArgumentException("must be positive");
    }
    return duration;
  }

  private static Set<String> names(String text) {
    final Set<String> names = new TreeSet<>();
    Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(names::add);
    return Set.copyOf(names);
  }

  private static <E extends Enum<E>> E oneOf(Class<E> type, String text) {
    try {
      return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected one of "
              + Arrays.stream(type.getEnumConstants())
                  .map(c -> c.name().toLowerCase(Locale.ROOT))
                  .toList());
    }
  }
}

package io.quotaflow.kafka;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The part of {@link KafkaSecurity} that checks SASL: a mechanism Kafka's clients support, and a
 * JAAS configuration that parses and names that mechanism's login module. Its messages never
 * contain the JAAS configuration's values.
 */
final class SaslCheck {

  /** Login module of each SASL mechanism Kafka's clients support. */
  private static final Map<String, String> LOGIN_MODULES =
      Map.of(
          "PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule",
          "SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule",
          "SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule",
          "OAUTHBEARER", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
          "GSSAPI", "com.sun.security.auth.module.Krb5LoginModule");

  private static final List<String> MECHANISMS =
      List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER", "GSSAPI");

  /** The JVM-wide JAAS file, an alternative to {@code sasl.jaas.config}. */
  private static final String JAAS_FILE_PROPERTY = "java.security.auth.login.config";

  private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

  private SaslCheck() {}

  static void check(
      final Map<String, String> settings,
      final SecurityProtocol protocol,
      final List<String> problems) {
    final String mechanism =
        settings
            .getOrDefault(SaslConfigs.SASL_MECHANISM, SaslConfigs.DEFAULT_SASL_MECHANISM)
            .trim();
    if (!MECHANISMS.contains(mechanism)) {
      problems.add(
          SaslConfigs.SASL_MECHANISM
              + " '"
              + mechanism
              + "' is not a mechanism Kafka's clients support; expected one of "
              + MECHANISMS);
      return;
    }
    final String jaas = settings.getOrDefault(SaslConfigs.SASL_JAAS_CONFIG, "").trim();
    if (jaas.isEmpty()) {
      if (System.getProperty(JAAS_FILE_PROPERTY) == null) {
        problems.add(
            SaslConfigs.SASL_MECHANISM
                + " "
                + mechanism
                + " ("
                + CommonClientConfigs.SECURITY_PROTOCOL_CONFIG
                + " "
                + protocol.name
                + ") needs "
                + SaslConfigs.SASL_JAAS_CONFIG
                + ", e.g. the key sasl.jaas.config of the KafkaUser's Secret");
      }
      return;
    }
    final List<AppConfigurationEntry> entries;
    try {
      entries =
          JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(jaas)))
              .configurationEntries();
    } catch (IllegalArgumentException e) {
      problems.add(
          SaslConfigs.SASL_JAAS_CONFIG
              + " is not a JAAS configuration ("
              + hideValues(reason(e), jaas)
              + "); expected e.g. "
              + LOGIN_MODULES.get(mechanism)
              + " required username=\"...\" password=\"...\";");
      return;
    }
    final String module = entries.get(0).getLoginModuleName();
    if (!module.equals(LOGIN_MODULES.get(mechanism))) {
      problems.add(
          SaslConfigs.SASL_JAAS_CONFIG
              + " uses "
              + module
              + " but "
              + SaslConfigs.SASL_MECHANISM
              + " "
              + mechanism
              + " needs "
              + LOGIN_MODULES.get(mechanism));
    }
  }

  /** {@code message} with every quoted value of the JAAS configuration masked. */
  private static String hideValues(final String message, final String jaas) {
    String hidden = message;
    final Matcher quoted = QUOTED.matcher(jaas);
    while (quoted.find()) {
      if (!quoted.group(1).isEmpty()) {
        hidden = hidden.replace(quoted.group(1), "[hidden]");
      }
    }
    return hidden;
  }

  private static String reason(final Exception e) {
    final String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}

package io.quotaflow.broker;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.network.SocketServerConfigs;
import org.apache.kafka.server.config.ReplicationConfigs;

/**
 * Client authentication for the embedded broker: clients connect with SASL/PLAIN as one of the
 * users, and the standard authorizer enforces ACLs, for which no ACL means no access; the super
 * user may do anything. For tests of what a deployment's credentials and ACLs allow.
 *
 * @param superUser the user that may do anything (creates the ACLs of the others)
 * @param passwords every user's password, the super user's included
 */
record SaslPlainUsers(String superUser, Map<String, String> passwords) {

  /** The name of the clients' listener. */
  static final String LISTENER = "SASL";

  private static final String PLAIN = "PLAIN";
  private static final String PLAIN_LOGIN_MODULE =
      "org.apache.kafka.common.security.plain.PlainLoginModule";

  SaslPlainUsers {
    Objects.requireNonNull(superUser, "superUser");
    passwords = Map.copyOf(passwords);
    if (!passwords.containsKey(superUser)) {
      throw new IllegalArgumentException("The super user " + superUser + " needs a password");
    }
    for (final Map.Entry<String, String> user : passwords.entrySet()) {
      if (!user.getKey().matches("[\\w.-]+") || user.getValue().contains("\"")) {
        throw new IllegalArgumentException("Unusable user name or password for " + user.getKey());
      }
    }
  }

  /** Replaces the clients' PLAINTEXT listener with a SASL_PLAINTEXT one and turns on ACLs. */
  void apply(final Properties props, final int brokerPort, final String controllerListener) {
    final String endpoint = LISTENER + "://" + BrokerProperties.endpoint(Ports.HOST, brokerPort);
    final String controllers = (String) props.get(SocketServerConfigs.LISTENERS_CONFIG);
    props.put(
        SocketServerConfigs.LISTENERS_CONFIG,
        endpoint + controllers.substring(controllers.indexOf(',')));
    props.put(SocketServerConfigs.ADVERTISED_LISTENERS_CONFIG, endpoint);
    props.put(
        SocketServerConfigs.LISTENER_SECURITY_PROTOCOL_MAP_CONFIG,
        LISTENER + ":SASL_PLAINTEXT," + controllerListener + ":PLAINTEXT");
    props.put(ReplicationConfigs.INTER_BROKER_LISTENER_NAME_CONFIG, LISTENER);
    props.put("sasl.enabled.mechanisms", PLAIN);
    props.put("sasl.mechanism.inter.broker.protocol", PLAIN);
    final StringBuilder jaas =
        new StringBuilder(PLAIN_LOGIN_MODULE)
            .append(" required username=\"")
            .append(superUser)
            .append("\" password=\"")
            .append(passwords.get(superUser))
            .append('"');
    passwords.forEach(
        (user, password) ->
            jaas.append(" user_").append(user).append("=\"").append(password).append('"'));
    jaas.append(';');
    props.put(
        "listener.name."
            + LISTENER.toLowerCase(Locale.ROOT)
            + ".plain."
            + SaslConfigs.SASL_JAAS_CONFIG,
        jaas.toString());
    props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    // The controller listener is PLAINTEXT: the broker's own requests to it come as ANONYMOUS.
    props.put("super.users", "User:" + superUser + ";User:ANONYMOUS");
  }

  /** The client settings that connect as {@code user}. */
  Map<String, String> clientSettings(final String user) {
    final String password = passwords.get(user);
    if (password == null) {
      throw new IllegalArgumentException("No user " + user + " on this broker");
    }
    return Map.of(
        "security.protocol",
        "SASL_PLAINTEXT",
        SaslConfigs.SASL_MECHANISM,
        PLAIN,
        SaslConfigs.SASL_JAAS_CONFIG,
        PLAIN_LOGIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
  }
}

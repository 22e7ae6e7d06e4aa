package io.quotaflow.admission.http;

import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.limits.SlowClientGuard;
import io.quotaflow.admission.http.tls.CertificateReloader;
import java.util.Optional;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The plugin's Jetty server, not started and without its handler: its worker threads, its main
 * connector (HTTPS with the reloaded certificate when there is one) limited in connections and
 * guarded against slow clients, and the connector of the health port when one is configured.
 */
final class JettyAssembly {

  /**
   * @param server the server, holding the connectors
   * @param connector the main connector: webhooks, filter, people's doors
   * @param health the connector serving only health and readiness
   */
  record Parts(Server server, ServerConnector connector, Optional<ServerConnector> health) {}

  private JettyAssembly() {}

  static Parts assemble(
      PluginConfig config,
      ServerLimits limits,
      Optional<CertificateReloader> certificates,
      SlowClientGuard slowClients) {
    final QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("quotaflow-admission");
    final Server server = new Server(threads);
    server.setErrorHandler(new JettyErrors());
    final HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    final ServerConnector connector;
    if (certificates.isPresent()) {
      final SecureRequestCustomizer secure = new SecureRequestCustomizer();
      // Webhooks are called by Service name, forwarding by pod address: no SNI host check.
      secure.setSniHostCheck(false);
      http.addCustomizer(secure);
      connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(
                  certificates.get().factory(), HttpVersion.HTTP_1_1.asString()),
              new HttpConnectionFactory(http));
    } else {
      connector = new ServerConnector(server, new HttpConnectionFactory(http));
    }
    connector.setHost(config.bindAddress());
    connector.setPort(config.port());
    connector.addBean(slowClients);
    final NetworkConnectionLimit connections =
        new NetworkConnectionLimit(limits.maxConnections(), connector);
    connections.setEndPointIdleTimeout(1_000);
    server.addBean(connections);
    server.addConnector(connector);
    Optional<ServerConnector> health = Optional.empty();
    if (limits.healthPort().isPresent()) {
      final ServerConnector healthConnector =
          new ServerConnector(server, new HttpConnectionFactory(http));
      healthConnector.setHost(config.bindAddress());
      healthConnector.setPort(limits.healthPort().getAsInt());
      healthConnector.addBean(slowClients);
      server.addConnector(healthConnector);
      health = Optional.of(healthConnector);
    }
    return new Parts(server, connector, health);
  }
}

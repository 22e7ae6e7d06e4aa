package io.quotaflow.admission.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.config.EngineConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Engine instances of one application, each with the admission plugin beside it as {@code quotaflow
 * engine} runs them: plain HTTP on 127.0.0.1 at a free port, the engine's and the plugin's meters
 * in one registry. Closes the plugins it started; the {@link EngineInstances} close the engines, so
 * close these first.
 */
final class PluginInstances implements AutoCloseable {

  /** One engine, its plugin, and a client of the plugin. */
  record Instance(Engine engine, AdmissionServer plugin, PluginClient client) {}

  private final EngineInstances engines;
  private final List<AdmissionServer> plugins = new ArrayList<>();

  PluginInstances(EngineInstances engines) {
    this.engines = engines;
  }

  /**
   * Starts an engine on a state directory of its own and then its plugin, without waiting for the
   * engine to run. A {@code named} instance advertises its plugin as its application server, so
   * that the others forward to it the clusters it owns.
   */
  Instance start(boolean named) {
    final int port = PluginClient.freePort();
    final Map<String, String> plugin = new HashMap<>();
    plugin.put(PluginSettings.PLAIN_HTTP.key(), "true");
    plugin.put(PluginSettings.BIND_ADDRESS.key(), "127.0.0.1");
    plugin.put(PluginSettings.PORT.key(), Integer.toString(port));
    if (named) {
      plugin.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port);
    }
    final EngineConfig config = engines.config(EngineInstances.stateDir(), plugin);
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final Engine engine = engines.start(config, registry);
    final AdmissionServer server = EnginePlugin.start(config, engine, registry).orElseThrow();
    plugins.add(server);
    return new Instance(engine, server, new PluginClient(port));
  }

  @Override
  public void close() {
    for (int i = plugins.size() - 1; i >= 0; i--) {
      plugins.get(i).close();
    }
  }
}

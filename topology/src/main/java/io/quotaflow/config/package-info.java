/**
 * The configuration machinery every quotaflow component shares: a documented, typed {@link
 * io.quotaflow.config.Setting}, the value {@link io.quotaflow.config.Parsers}, {@link
 * io.quotaflow.config.Secrets} masking, and the {@link io.quotaflow.config.ConfigLoader} that reads
 * a properties file, the {@code QUOTAFLOW_*} environment and explicit overrides into a {@link
 * io.quotaflow.config.LoadedConfig}.
 *
 * <p>Each component keeps only its catalogue (its settings and how they map onto its own types):
 * the engine's {@code EngineSettings}, the admission plugin's {@code PluginSettings}, the
 * connectors' {@code ConnectSettings}.
 */
package io.quotaflow.config;

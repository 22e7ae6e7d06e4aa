/**
 * The configuration machinery every quotaflow component shares: a documented, typed {@link
 * io.quotaflow.config.Setting}, the value {@link io.quotaflow.config.Parsers}, {@link
 * io.quotaflow.config.Secrets} masking, and {@link io.quotaflow.config.ConfigSources}, which reads
 * a properties file, the {@code QUOTAFLOW_*} environment and explicit overrides into a {@link
 * io.quotaflow.config.LoadedConfig}. {@code ConfigSources} is the base of every component's
 * configuration builder; {@link io.quotaflow.config.ConfigLoader} is the plain one.
 *
 * <p>Each component keeps only its catalogue (its settings and how they map onto its own types):
 * the engine's {@code EngineSettings}, the admission plugin's {@code PluginSettings}, the
 * connectors' {@code ConnectSettings}. The settings of quota semantics are declared once, here, in
 * {@link io.quotaflow.config.QuotaSettings}, for every reader: the engine lists them, and {@code
 * simulate --config} reads them into the same {@link io.quotaflow.config.QuotaSemantics}.
 */
package io.quotaflow.config;

package io.quotaflow.broker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Formats the broker's log directory for KRaft, as {@code kafka-storage.sh format} does.
 *
 * <p>Calls {@link StorageTool#execute} rather than {@code StorageTool.main}: {@code main} ends the
 * JVM when it is done. A directory that is already formatted is left as it is, so a broker can be
 * restarted on the data of an earlier run.
 */
final class StorageFormatter {

  private static final Logger LOG = LoggerFactory.getLogger(StorageFormatter.class);

  private static final String META_PROPERTIES = "meta.properties";

  private StorageFormatter() {}

  /**
   * Formats {@code logDir} for a new cluster unless it already holds one.
   *
   * @param props the broker configuration, naming {@code logDir} as its only directory
   * @param logDir the broker's log and metadata directory
   * @param configFile where to write {@code props} for the storage tool to read
   */
  static void formatIfNeeded(final Properties props, final Path logDir, final Path configFile) {
    if (Files.exists(logDir.resolve(META_PROPERTIES))) {
      // Formatted by an earlier run: keep its cluster id, which a new format would contradict.
      LOG.debug("Kafka storage in {} is already formatted", logDir);
      return;
    }
    write(props, configFile);
    final ByteArrayOutputStream output = new ByteArrayOutputStream();
    final String[] args = {
      "format", "--cluster-id", Uuid.randomUuid().toString(), "--config", configFile.toString()
    };
    final int exitCode;
    try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
      exitCode = StorageTool.execute(args, out);
    } catch (final RuntimeException e) {
      throw new IllegalStateException(
          "Could not format the embedded Kafka broker's storage in " + configFile.getParent(), e);
    }
    final String report = output.toString(StandardCharsets.UTF_8).strip();
    if (exitCode != 0) {
      throw new IllegalStateException(
          "Could not format the embedded Kafka broker's storage (exit code "
              + exitCode
              + "): "
              + report);
    }
    LOG.debug("Kafka storage: {}", report);
  }

  private static void write(final Properties props, final Path file) {
    try (OutputStream out = Files.newOutputStream(file)) {
      props.store(out, "Written by quotaflow's embedded Kafka broker to format its storage");
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not write " + file, e);
    }
  }
}

package io.quotaflow.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.kafka.common.utils.AppInfoParser;
import picocli.CommandLine.IVersionProvider;

/** Answers {@code --version} with the version the build wrote into {@code version.properties}. */
final class VersionProvider implements IVersionProvider {

  private static final String RESOURCE = "version.properties";

  /** The quotaflow version, e.g. {@code 0.1.0}. */
  static String quotaflowVersion() {
    try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the class path");
      }
      final Properties props = new Properties();
      props.load(in);
      return props.getProperty("version");
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not read " + RESOURCE, e);
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "quotaflow " + quotaflowVersion(),
      "Kafka " + AppInfoParser.getVersion(),
      "Java ${java.version} (${java.vendor})"
    };
  }
}

package io.quotaflow.local;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * Finds {@code deploy/local} (the example organisation and the scenarios) of the checkout quotaflow
 * runs from: above the jar or classes directory, else under the working directory.
 */
final class LocalFiles {

  private static final Path LOCAL = Path.of("deploy", "local");

  private LocalFiles() {}

  /** The {@code deploy/local} directory; the one under the working directory if none is found. */
  static Path localDir() {
    return codeLocation()
        .flatMap(LocalFiles::above)
        .or(() -> above(Path.of("").toAbsolutePath()))
        .orElse(LOCAL);
  }

  private static Optional<Path> above(final Path start) {
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      final Path candidate = dir.resolve(LOCAL);
      if (Files.isDirectory(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> codeLocation() {
    final CodeSource source = LocalFiles.class.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(source.getLocation().toURI()));
    } catch (final URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}

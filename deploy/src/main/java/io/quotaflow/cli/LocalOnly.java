package io.quotaflow.cli;

import java.util.Optional;

/**
 * Finds {@code quotaflow local} when its classes are on the class path. The production jar leaves
 * them out together with the embedded broker and the demo cluster they need, so the root command
 * names the class only as a string and never links to it.
 */
final class LocalOnly {

  /** The {@code local} command's class, in deploy's {@code io.quotaflow.local}. */
  static final String LOCAL_COMMAND = "io.quotaflow.local.LocalCommand";

  private LocalOnly() {}

  /** The {@code local} command's class, or empty when this jar was built without it. */
  static Optional<Class<?>> command() {
    return command(LOCAL_COMMAND);
  }

  static Optional<Class<?>> command(final String className) {
    try {
      return Optional.of(Class.forName(className, false, LocalOnly.class.getClassLoader()));
    } catch (final ClassNotFoundException e) {
      return Optional.empty();
    }
  }
}

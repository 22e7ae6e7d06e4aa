package io.quotaflow.cli;

import io.quotaflow.engine.Engine;
import java.util.Optional;

/** What tests in other packages may ask of a running {@link EngineCommand}. */
public final class EngineCommands {

  private EngineCommands() {}

  /** The engine the command runs, once it has created it. */
  public static Optional<Engine> engine(final EngineCommand command) {
    return command.engine();
  }
}

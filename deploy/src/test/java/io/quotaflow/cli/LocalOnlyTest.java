package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.local.LocalCommand;
import org.junit.jupiter.api.Test;

class LocalOnlyTest {

  @Test
  void theLocalCommandIsFoundWhereItsClassesAreOnTheClassPath() {
    assertThat(LocalOnly.command()).contains(LocalCommand.class);
    assertThat(LocalOnly.LOCAL_COMMAND).isEqualTo(LocalCommand.class.getName());
  }

  @Test
  void aMissingCommandClassIsLeftOutRatherThanFailing() {
    assertThat(LocalOnly.command("io.quotaflow.local.NoSuchCommand")).isEmpty();
  }

  @Test
  void theRootCommandOffersLocalWhenItIsThere() {
    assertThat(QuotaflowCommand.commandLine().getSubcommands()).containsKey("local");
  }
}

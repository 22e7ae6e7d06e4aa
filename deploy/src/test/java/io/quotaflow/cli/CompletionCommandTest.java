package io.quotaflow.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The script {@code quotaflow completion} prints, loaded into a real bash and asked to complete.
 */
class CompletionCommandTest {

  @TempDir Path dir;

  private Path script;

  @BeforeEach
  void writeScript() throws IOException {
    final CommandRun run = CommandRun.of("completion");
    assertThat(run.exitCode()).as(run.err()).isZero();
    script = Files.writeString(dir.resolve("quotaflow-completion.bash"), run.out());
  }

  @Test
  void bashCompletesTheCommands() throws Exception {
    assertThat(complete("quotaflow", "")).contains("simulate", "tree", "local", "completion");
    assertThat(complete("quotaflow", "tr")).containsExactly("tree");
  }

  @Test
  void bashCompletesTheOptionsOfACommand() throws Exception {
    assertThat(complete("quotaflow", "tree", "--ser")).containsExactly("--server");
    assertThat(complete("quotaflow", "simulate", "--out")).containsExactly("--output");
  }

  @Test
  void theScriptSetsItselfUpForZshToo() {
    assertThat(CommandRun.of("completion").out()).contains("ZSH_VERSION", "bashcompinit");
  }

  /** What bash offers for the last of {@code words}, as it would after TAB. */
  private List<String> complete(final String... words) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is not installed");
    final String line = String.join(" ", words);
    final StringBuilder array = new StringBuilder();
    for (final String word : words) {
      array.append('\'').append(word).append("' ");
    }
    final String program =
        String.join(
            "\n",
            "source '" + script + "'",
            "COMP_WORDS=(" + array + ")",
            "COMP_CWORD=" + (words.length - 1),
            "COMP_LINE='" + line + "'",
            "COMP_POINT=${#COMP_LINE}",
            "_complete_quotaflow",
            "printf '%s\\n' \"${COMPREPLY[@]}\"");
    final Process bash =
        new ProcessBuilder("/bin/bash", "--norc", "--noprofile", "-c", program)
            // Outside a real TAB press bash warns about compopt on stderr; only the answer counts.
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    final String output = new String(bash.getInputStream().readAllBytes(), UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as(output).isZero();
    return output.lines().map(String::trim).filter(word -> !word.isEmpty()).toList();
  }
}

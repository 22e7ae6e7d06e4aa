package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every command's help, rendered at 80 columns as a terminal shows it: no line is longer, no word
 * is cut in two, and no description stops mid-sentence (picocli starts a new line for each element
 * of a description, and lists commands by the first element only).
 */
class UsageHelpTest {

  private static final int WIDTH = 80;
  private static final int WIDE = 1_000;

  static Stream<String> commands() {
    final List<String> names = new ArrayList<>();
    collect(QuotaflowCommand.commandLine(), names);
    return names.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void helpFitsEightyColumns(final String command) {
    final List<String> lines = usage(command, WIDTH).lines().toList();

    assertThat(lines)
        .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(WIDTH));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void helpBreaksLinesBetweenWordsOnly(final String command) {
    assertThat(words(usage(command, WIDTH)))
        .as("the words at 80 columns are the words of an unwrapped rendering")
        .isEqualTo(words(usage(command, WIDE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void everyDescriptionParagraphEndsAsASentence(final String command) {
    final CommandSpec spec = find(command).getCommandSpec();
    final List<String> paragraphs =
        new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
    for (final ArgSpec arg : spec.args()) {
      paragraphs.addAll(Arrays.asList(arg.description()));
    }

    assertThat(paragraphs)
        .allSatisfy(
            paragraph ->
                assertThat(paragraph.replace("%n", "").strip())
                    .as(paragraph)
                    .matches("|(?s).*[.:!?)]"));
  }

  private static String usage(final String command, final int width) {
    final CommandLine commandLine = find(command);
    commandLine.setUsageHelpWidth(width);
    commandLine.setUsageHelpAutoWidth(false);
    return commandLine.getUsageMessage(Help.Ansi.OFF);
  }

  /** The command line of {@code command} ("quotaflow topics tail"), freshly built. */
  private static CommandLine find(final String command) {
    CommandLine current = QuotaflowCommand.commandLine();
    for (final String name : command.split(" ")) {
      if (!name.equals(current.getCommandName())) {
        current = current.getSubcommands().get(name);
      }
    }
    return current;
  }

  private static void collect(final CommandLine commandLine, final List<String> names) {
    names.add(qualifiedName(commandLine));
    final Map<CommandLine, Boolean> seen = new HashMap<>();
    for (final CommandLine sub : commandLine.getSubcommands().values()) {
      if (seen.put(sub, true) == null) {
        collect(sub, names);
      }
    }
  }

  private static String qualifiedName(final CommandLine commandLine) {
    return commandLine.getParent() == null
        ? commandLine.getCommandName()
        : qualifiedName(commandLine.getParent()) + " " + commandLine.getCommandName();
  }

  private static List<String> words(final String text) {
    return Arrays.stream(text.split("\\s+")).filter(word -> !word.isEmpty()).toList();
  }
}

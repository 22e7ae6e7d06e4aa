package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code quotaflow local} with no options but a free port, as a user runs it: it becomes ready,
 * prints the example organisation's tree, answers the query API, stays up, and stops within a few
 * seconds when stopped as Ctrl-C stops it.
 */
@Tag("system")
class LocalCommandIT {

  private static final Pattern QUERY_URL = Pattern.compile("curl (http://127\\.0\\.0\\.1:\\d+)");

  @Test
  void runsTheExampleOrganisationUntilStoppedThenStopsWithinSeconds() throws Exception {
    final LocalCommand command = new LocalCommand();
    final CommandLine commandLine = new CommandLine(command);
    final StringWriter out = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    final CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(() -> commandLine.execute("--http-port", "0"));

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> out.toString().contains("=== cluster demo") || exit.isDone());
    assertThat(exit).isNotDone();
    assertThat(out.toString())
        .contains("quotaflow local is ready")
        .contains("koordinator-root-quota")
        .contains("research-vision")
        .contains("vision/train-resnet-1");

    final Matcher url = QUERY_URL.matcher(out.toString());
    assertThat(url.find()).isTrue();
    final HttpResponse<String> tree =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url.group(1) + "/api/v1/clusters/demo/quotas"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(tree.statusCode()).isEqualTo(200);
    assertThat(tree.body()).contains("\"research-vision\"");

    final long stopping = System.nanoTime();
    command.stop();
    assertThat(exit.get()).isZero();
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(10));
  }
}

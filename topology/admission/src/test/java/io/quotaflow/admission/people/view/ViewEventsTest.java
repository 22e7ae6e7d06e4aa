package io.quotaflow.admission.people.view;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.PeopleSettings;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The web view's live stream (Server-Sent Events): it starts with the status and the activity, then
 * sends only the rows that changed between two copies of the state, pushes activity as it happens,
 * is bounded in number, and ends at once when the plugin stops.
 */
class ViewEventsTest {

  private static final String STREAM = "/api/v1/clusters/view/view/events";

  private final HttpClient client = HttpClient.newHttpClient();
  private final List<Events> opened = new ArrayList<>();
  private Plugin plugin;
  private SnapshotClusterState state;

  /** One stream's events as they arrive. */
  private static final class Events {
    final int status;
    final List<String[]> received = new CopyOnWriteArrayList<>();
    final Stream<String> lines;
    volatile boolean ended;

    Events(HttpResponse<Stream<String>> response) {
      this.status = response.statusCode();
      this.lines = response.body();
      final Thread reader =
          new Thread(
              () -> {
                String name = null;
                try {
                  for (final String line : (Iterable<String>) lines::iterator) {
                    if (line.startsWith("event: ")) {
                      name = line.substring(7);
                    } else if (line.startsWith("data: ") && name != null) {
                      received.add(new String[] {name, line.substring(6)});
                      name = null;
                    }
                  }
                } catch (RuntimeException e) {
                  // The stream was cut: that ends it too.
                }
                ended = true;
              },
              "test-events");
      reader.setDaemon(true);
      reader.start();
    }

    List<JsonNode> named(String event) {
      final List<JsonNode> matching = new ArrayList<>();
      for (final String[] e : received) {
        if (e[0].equals(event)) {
          try {
            matching.add(Json.MAPPER.readTree(e[1]));
          } catch (IOException ex) {
            throw new AssertionError(ex);
          }
        }
      }
      return matching;
    }
  }

  private Events open() throws Exception {
    final HttpResponse<Stream<String>> response =
        client
            .sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plugin.port() + STREAM))
                    .build(),
                HttpResponse.BodyHandlers.ofLines())
            .get(10, TimeUnit.SECONDS);
    final Events events = new Events(response);
    opened.add(events);
    return events;
  }

  private void start(PluginConfig config) {
    start(config, ServerLimits.DEFAULTS);
  }

  private void start(PluginConfig config, ServerLimits limits) {
    state =
        new SnapshotClusterState()
            .put(WebViewTest.CLUSTER, WebViewTest.cluster().inputs(), QuotaOptions.DEFAULTS);
    plugin = Plugin.start(config, limits, state);
    plugin.server().refreshLastState();
  }

  @AfterEach
  void stop() {
    opened.forEach(events -> events.lines.close());
    if (plugin != null) {
      plugin.close();
    }
  }

  @Test
  void aStreamStartsWithTheStatusThenSendsOnlyTheRowsThatChanged() throws Exception {
    start(PluginConfig.plainHttpOnLoopback(0));
    final Events events = open();
    assertThat(events.status).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> !events.named("status").isEmpty());
    final JsonNode status = events.named("status").get(0);
    assertThat(status.path("ready").asBoolean()).isTrue();
    assertThat(status.path("stale").asBoolean()).isFalse();
    await().atMost(Duration.ofSeconds(5)).until(() -> events.named("activity").size() == 1);

    final int statuses = events.named("status").size();
    plugin.server().refreshLastState();
    // A copy's changes are sent before its status: once the status is read, so would they be.
    await().atMost(Duration.ofSeconds(5)).until(() -> events.named("status").size() > statuses);
    assertThat(events.named("groups")).as("nothing changed, nothing sent").isEmpty();

    state.put(
        WebViewTest.CLUSTER,
        WebViewTest.cluster().pod(WebViewTest.pending("idle", "i-1", 4_000)).inputs(),
        QuotaOptions.DEFAULTS);
    plugin.server().refreshLastState();

    await().atMost(Duration.ofSeconds(5)).until(() -> !events.named("groups").isEmpty());
    final JsonNode change = events.named("groups").get(0);
    final List<String> rows = new ArrayList<>();
    change.path("rows").forEach(row -> rows.add(row.path("name").asText()));
    assertThat(rows).contains("busy", "idle").doesNotContain(SpecialGroups.SYSTEM);
    for (final JsonNode row : change.path("rows")) {
      if (row.path("name").asText().equals("busy")) {
        assertThat(row.path("dims").get(0).path("runtime").asLong()).isEqualTo(6_000);
        assertThat(row.path("over").toString()).isEqualTo("[\"cpu\"]");
      }
    }
    assertThat(change.path("removed").size()).isZero();
  }

  @Test
  void aRemovedGroupIsSentAsRemoved() throws Exception {
    start(PluginConfig.plainHttpOnLoopback(0));
    final Events events = open();
    await().atMost(Duration.ofSeconds(5)).until(() -> !events.named("status").isEmpty());

    state.put(
        WebViewTest.CLUSTER,
        WebViewTest.cluster().group(io.quotaflow.tree.Fixtures.quota("newcomer")).inputs(),
        QuotaOptions.DEFAULTS);
    plugin.server().refreshLastState();
    await().atMost(Duration.ofSeconds(5)).until(() -> !events.named("groups").isEmpty());
    state.put(WebViewTest.CLUSTER, WebViewTest.cluster().inputs(), QuotaOptions.DEFAULTS);
    plugin.server().refreshLastState();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                events.named("groups").stream()
                    .anyMatch(e -> e.path("removed").toString().contains("newcomer")));
  }

  @Test
  void aDenialIsPushedAsActivity() throws Exception {
    start(PluginConfig.plainHttpOnLoopback(0));
    final Events events = open();
    await().atMost(Duration.ofSeconds(5)).until(() -> events.named("activity").size() == 1);

    plugin.post(
        "/clusters/view/admission/pods",
        createPod("uid-1", pod("busy", "huge").cpu("50").quota("busy")));

    await().atMost(Duration.ofSeconds(5)).until(() -> events.named("activity").size() == 2);
    assertThat(events.named("activity").get(1).path("denials").get(0).path("name").asText())
        .isEqualTo("huge");
  }

  /** Issue 25: one client cannot take every stream. */
  @Test
  void aClientBeyondItsShareOfStreamsIsRefusedWith429() throws Exception {
    start(
        PluginConfig.plainHttpOnLoopback(0),
        new ServerLimits(Duration.ofSeconds(5), 1024, java.util.OptionalInt.empty(), 2, 10, 10));
    final Events first = open();
    final Events second = open();
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.server().openStreams() == 2);

    final Plugin.Reply third = plugin.get(STREAM);

    assertThat(first.status).isEqualTo(200);
    assertThat(second.status).isEqualTo(200);
    assertThat(third.status()).isEqualTo(429);
    assertThat(third.json().path("error").asText()).contains("admission.view.streams.per.client");
  }

  @Test
  void streamsBeyondTheLimitAreRefusedWithAMessageNamingTheSetting() throws Exception {
    start(
        PluginSettings.config(
            Map.of(
                PluginSettings.PLAIN_HTTP.key(), "true",
                PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
                PluginSettings.PORT.key(), "0",
                PeopleSettings.VIEW_MAX_STREAMS.key(), "1")));
    final Events first = open();
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.server().openStreams() == 1);

    final Plugin.Reply second = plugin.get(STREAM);

    assertThat(first.status).isEqualTo(200);
    assertThat(second.status()).isEqualTo(503);
    assertThat(second.json().path("error").asText()).contains("admission.view.max.streams");
  }

  @Test
  void aStreamOfAClusterNotHeldHereIsA404() {
    start(PluginConfig.plainHttpOnLoopback(0));

    final Plugin.Reply reply = plugin.get("/api/v1/clusters/elsewhere/view/events");

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.json().path("error").asText()).contains("not held by this instance");
  }

  @Test
  void stoppingThePluginEndsOpenStreamsAtOnce() throws Exception {
    start(PluginConfig.plainHttpOnLoopback(0));
    final Events one = open();
    final Events two = open();
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.server().openStreams() == 2);

    final long stopping = System.nanoTime();
    plugin.close();

    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(5));
    await().atMost(Duration.ofSeconds(5)).until(() -> one.ended && two.ended);
    assertThat(plugin.server().openStreams()).isZero();
  }
}

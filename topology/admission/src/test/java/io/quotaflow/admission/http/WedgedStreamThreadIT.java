package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.awaitTeamA;
import static io.quotaflow.admission.http.AdmissionInputs.pod;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.CrashInjector;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.engine.config.EngineSettings;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40.11 on a real engine: a stream thread wedged in processing (blocked on a latch by the
 * test's processor wrapper) stops its task's heartbeat, and the plugin's {@code /healthz} answers
 * 503 naming the task within {@code health.max.silence} (2 s here), so the liveness probe would
 * restart the instance; idle, the task beats and {@code /healthz} stays 200; released, 200 again.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class WedgedStreamThreadIT {

  private static final String CLUSTER = "east";
  private static final Duration ALLOWED = Duration.ofSeconds(2);

  @Test
  void aWedgedStreamThreadTurnsHealthzTo503WithinTheAllowedSilence(EmbeddedKafkaBroker broker)
      throws Exception {
    final CountDownLatch release = new CountDownLatch(1);
    try (EngineInstances engines =
            new EngineInstances(
                broker.bootstrapServers(),
                CrashInjector.installedIn(
                    Map.of(EngineSettings.HEALTH_MAX_SILENCE.key(), ALLOWED.toMillis() + "ms")));
        PluginInstances instances = new PluginInstances(engines);
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
      final Instance instance = instances.start(false);
      final PluginClient client = instance.client();
      teamA(inputs, CLUSTER, Map.of("cpu", 10_000L));
      awaitTeamA(client, CLUSTER);

      // Idle for longer than the allowed silence: the task's punctuation beats.
      await()
          .during(ALLOWED.multipliedBy(2))
          .atMost(ALLOWED.multipliedBy(4))
          .until(() -> client.call("GET", "/healthz", "").statusCode() == 200);

      CrashInjector.wedge(engines.applicationId(), release);
      inputs.putPod(CLUSTER, "alpha", "a-2", pod("alpha", "a-2", 1_000, true)).flush();
      final long sent = System.nanoTime();
      await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> client.call("GET", "/healthz", "").statusCode() == 503);
      final Duration toFail = Duration.ofNanos(System.nanoTime() - sent);
      final HttpResponse<String> wedged = client.call("GET", "/healthz", "");
      System.out.printf(
          "healthz turned 503 %d ms after the wedging record was sent%n", toFail.toMillis());

      assertThat(wedged.body()).contains("wedged: stream task", "allowed 2000 ms");
      // The record's delivery and the last beat before it come first: at most one beat interval
      // (a quarter of the allowed silence) and the delivery before the silence starts.
      assertThat(toFail).isLessThan(ALLOWED.plusSeconds(3));

      release.countDown();
      await().atMost(TIMEOUT).until(() -> client.call("GET", "/healthz", "").statusCode() == 200);
    } finally {
      release.countDown();
    }
  }
}

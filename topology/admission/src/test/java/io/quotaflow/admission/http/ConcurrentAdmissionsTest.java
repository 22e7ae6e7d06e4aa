package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.state.SnapshotClusterState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrentAdmissionsTest {

  @Test
  void aHundredConcurrentAdmissionsIntoAGroupWithRoomForTenAdmitExactlyTen() throws Exception {
    final SnapshotClusterState state = TestClusters.state();
    final long room = TestClusters.room(state, "team-a");
    final long each = room / 10;
    assertThat(room % 10).isZero();
    final ExecutorService pool = Executors.newFixedThreadPool(32);
    try (Plugin plugin = Plugin.start(state)) {
      final CountDownLatch go = new CountDownLatch(1);
      final List<Future<Boolean>> answers = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        final String body = createPod("uid-" + i, pod("alpha", "worker-" + i).cpu(each + "m"));
        final Callable<Boolean> admit =
            () -> {
              go.await();
              final Plugin.Reply reply = plugin.post("/clusters/east/admission/pods", body);
              assertThat(reply.status()).isEqualTo(200);
              return reply.json().get("response").get("allowed").asBoolean();
            };
        answers.add(pool.submit(admit));
      }
      go.countDown();
      int admitted = 0;
      for (final Future<Boolean> answer : answers) {
        if (answer.get(30, TimeUnit.SECONDS)) {
          admitted++;
        }
      }

      assertThat(admitted).isEqualTo(10);
      assertThat(plugin.server().holds().of("east").held()).isEqualTo(10);
    } finally {
      pool.shutdownNow();
    }
  }
}

package io.fabric8.kubernetes.client.server.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import java.io.IOException;
import java.util.HashSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Reproducer of a fabric8 mock server defect (docs/upstream/fabric8-mock-watch-close-stall.md), in
 * fabric8's package because the listener is package-private. It pins the defect: it fails once a
 * fabric8 release no longer blocks, and then {@code OffLoopWatchClose} can go.
 *
 * <p>The mock server calls {@code WatchEventsListener.onFailure} (and {@code onClosed}) on its
 * Vert.x event loop when a watch connection ends. Both shut the listener's send executor down and
 * wait up to a minute for it. A send in progress there ({@code VertxMockWebSocket.send}) waits up
 * to 30 s for its write, which only that same event loop completes. A watch client that dies while
 * an event is on its way to it (kill -9 of a process that watches) so stops the whole mock server
 * for 30 s: every other request, lease renewals included, waits.
 */
class WatchEventsListenerStallTest {

  @Test
  void aFailedWatchConnectionWaitsOnItsCallersThreadForTheSendInProgress() throws Exception {
    final CountDownLatch sending = new CountDownLatch(1);
    // Stands for the event loop: the send's write completes only once that thread is free.
    final CountDownLatch eventLoopFree = new CountDownLatch(1);
    final WebSocket socket =
        new WebSocket() {
          @Override
          public RecordedRequest request() {
            return null;
          }

          @Override
          public boolean send(String text) {
            sending.countDown();
            try {
              return eventLoopFree.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return false;
            }
          }

          @Override
          public boolean send(byte[] bytes) {
            return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
          }

          @Override
          public boolean close(int code, String reason) {
            return true;
          }
        };
    final WatchEventsListener listener =
        new WatchEventsListener(
            new Context(),
            new AttributeSet(),
            new HashSet<>(),
            LoggerFactory.getLogger(WatchEventsListenerStallTest.class),
            opened -> {});
    listener.onOpen(socket, null);
    listener.sendWebSocketResponse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}",
        Watcher.Action.ADDED);
    assertThat(sending.await(5, TimeUnit.SECONDS)).isTrue();

    final ExecutorService eventLoop = Executors.newSingleThreadExecutor();
    try {
      final Future<?> failed =
          eventLoop.submit(
              () -> listener.onFailure(socket, new IOException("Connection reset"), null));
      // The defect: the connection's failure is not handled, its thread waits for the send.
      assertThatThrownBy(() -> failed.get(1, TimeUnit.SECONDS))
          .isInstanceOf(TimeoutException.class);
      eventLoopFree.countDown();
      failed.get(5, TimeUnit.SECONDS);
    } finally {
      eventLoopFree.countDown();
      eventLoop.shutdownNow();
    }
  }
}

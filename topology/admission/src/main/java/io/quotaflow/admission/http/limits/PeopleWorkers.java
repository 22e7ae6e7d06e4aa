package io.quotaflow.admission.http.limits;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.PeopleSettings;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that answer people (issue 39): the query API, the web view's data and stream, the
 * sign-in, the what-if, history and reports. Their answers may wait on the API server (TokenReview,
 * SubjectAccessReview), on another instance or on a long computation; on these threads, however
 * many people call, the webhooks and the scheduler filter keep the server's own. At most {@code
 * threads} run and {@code queue} wait; beyond, a request is answered 503 at once.
 */
public final class PeopleWorkers implements AutoCloseable {

  private final ThreadPoolExecutor executor;

  public PeopleWorkers(int threads, int queue) {
    final AtomicInteger count = new AtomicInteger();
    this.executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queue),
            runnable -> {
              final Thread thread =
                  new Thread(runnable, "quotaflow-people-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.AbortPolicy());
  }

  /** Runs {@code task} on a people's thread; false when every thread is busy and the queue full. */
  public boolean run(Runnable task) {
    try {
      executor.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** The answer to a request refused because every people's thread is busy. */
  public static Answer busy() {
    return Answer.error(
            503,
            "the plugin is answering as many people's requests as it may ("
                + PeopleSettings.API_THREADS.key()
                + ", "
                + PeopleSettings.API_QUEUE.key()
                + "); try again in a moment",
            "busy")
        .withHeader("Retry-After", "1");
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}

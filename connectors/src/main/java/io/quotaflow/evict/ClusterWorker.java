package io.quotaflow.evict;

import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the commands of one cluster, in the order they were read, on a thread of its own
 * (issue 40): a cluster whose API server is slow or down, or whose requests wait for its token
 * bucket, holds up only its own commands. The executor's Kafka thread hands commands in with {@link
 * #submit} and takes each verdict from {@code done}; this thread never touches a Kafka client, so
 * {@link #close()} may interrupt it at any point.
 */
final class ClusterWorker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWorker.class);
  private static final Duration JOIN = Duration.ofSeconds(1);

  /**
   * One command handed to the worker.
   *
   * @param partition where the command was read
   * @param offset its offset there
   * @param generation the partition's generation when it was read (a rewind or a revocation starts
   *     a new one, and the command is then read again or by another executor)
   * @param key the pod
   * @param command the command
   */
  record Job(
      org.apache.kafka.common.TopicPartition partition,
      long offset,
      long generation,
      PodKey key,
      EvictionCommand command) {}

  /** A job and what became of it. */
  record Done(Job job, Verdict verdict) {}

  private final String cluster;
  private final PodEvictor evictor;
  private final Predicate<Job> current;
  private final Consumer<Done> done;
  private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param cluster the cluster's name
   * @param evictor carries out one command
   * @param current whether a job is still wanted (not read again since): one that is not is dropped
   *     unstarted
   * @param done takes each verdict, on this worker's thread
   */
  ClusterWorker(
      final String cluster,
      final PodEvictor evictor,
      final Predicate<Job> current,
      final Consumer<Done> done) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.evictor = Objects.requireNonNull(evictor, "evictor");
    this.current = Objects.requireNonNull(current, "current");
    this.done = Objects.requireNonNull(done, "done");
    this.thread = new Thread(this::run, "quotaflow-eviction-" + cluster);
    this.thread.setDaemon(true);
  }

  /** Starts the worker's thread. */
  void start() {
    thread.start();
  }

  /** Queues a command; it is carried out after those queued before it. */
  void submit(final Job job) {
    queue.add(job);
  }

  /** Commands queued and not yet started. */
  int queued() {
    return queue.size();
  }

  private void run() {
    try {
      while (running) {
        final Job job = queue.take();
        if (!current.test(job)) {
          continue;
        }
        done.accept(new Done(job, carryOut(job)));
      }
    } catch (InterruptedException e) {
      // Stopping: the command in hand is abandoned uncommitted and runs again after a restart.
    }
  }

  private Verdict carryOut(final Job job) throws InterruptedException {
    try {
      return evictor.execute(job.key(), job.command());
    } catch (RuntimeException e) {
      if (!running) {
        throw new InterruptedException("stopping");
      }
      // A fault of this executor, not of the pod: reported, not left to hold the partition.
      LOG.error(
          "cluster {}: carrying out command {} failed unexpectedly",
          cluster,
          job.command().getId(),
          e);
      return new Verdict(
          EvictionOutcome.FAILED, "the executor failed carrying out the command: " + e, 0);
    }
  }

  /** Stops the thread: a command being carried out is abandoned, the queued ones dropped. */
  @Override
  public void close() {
    running = false;
    queue.clear();
    thread.interrupt();
    try {
      thread.join(JOIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

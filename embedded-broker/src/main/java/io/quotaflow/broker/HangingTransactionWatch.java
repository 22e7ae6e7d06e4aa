package io.quotaflow.broker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks for {@link HangingTransactions} for a while after a broker restarted on its data, and
 * aborts each it finds. The markers are lost only while the restarted broker still acts on its old
 * metadata, its first seconds; a minute covers that on a loaded machine, and every look costs a few
 * metadata requests.
 */
final class HangingTransactionWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HangingTransactionWatch.class);

  static final Duration WINDOW = Duration.ofSeconds(60);
  private static final Duration EVERY = Duration.ofMillis(500);

  private final Admin admin;
  private final ScheduledExecutorService looks;

  private HangingTransactionWatch(final Map<String, Object> clientSettings) {
    this.admin = Admin.create(clientSettings);
    this.looks =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              final Thread thread = new Thread(task, "quotaflow-broker-hanging-transactions");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts looking every half second for {@link #WINDOW}; {@link #close()} stops it sooner. */
  static HangingTransactionWatch start(final Map<String, String> clientSettings) {
    final Map<String, Object> settings = new java.util.HashMap<>(clientSettings);
    settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "quotaflow-broker-hanging-transactions");
    settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
    final HangingTransactionWatch watch = new HangingTransactionWatch(settings);
    final HangingTransactions hanging = new HangingTransactions(watch.admin);
    watch.looks.scheduleWithFixedDelay(
        () -> look(hanging), 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    watch.looks.schedule(watch::close, WINDOW.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  private static void look(final HangingTransactions hanging) {
    try {
      final List<TopicPartition> aborted = hanging.abortHanging();
      if (!aborted.isEmpty()) {
        LOG.warn("Aborted hanging transactions in {}", aborted);
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (final Exception e) {
      // The broker is still starting or stopping: the next look asks again.
      LOG.debug("Could not look for hanging transactions now", e);
    }
  }

  @Override
  public void close() {
    looks.shutdownNow();
    // Pending looks are dropped: stopping the broker must not wait for them.
    admin.close(Duration.ZERO);
  }
}

package io.quotaflow.bench.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Counts the committed records written to one topic from the moment it is created, on its own
 * thread: the engine's output volume (pod-classes.v1 records per pod event) without decoding them.
 */
final class RecordCounter implements AutoCloseable {
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile long records;
  private volatile boolean running = true;

  RecordCounter(final String bootstrapServers, final String topic) {
    this.consumer =
        new KafkaConsumer<>(
            ReadCommitted.settings(bootstrapServers, 5_000),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    final List<TopicPartition> partitions =
        consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
    this.thread = new Thread(this::run, "record-counter-" + topic);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  long records() {
    return records;
  }

  private void run() {
    try {
      while (running) {
        records += consumer.poll(Duration.ofMillis(100)).count();
      }
    } catch (final WakeupException e) {
      // close() asked us to stop.
    } finally {
      consumer.close();
      stopped.countDown();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    stopped.await(10, TimeUnit.SECONDS);
  }
}

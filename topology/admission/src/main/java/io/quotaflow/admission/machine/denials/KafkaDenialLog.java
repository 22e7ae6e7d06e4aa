package io.quotaflow.admission.machine.denials;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.kafka.ClientSettings;
import io.quotaflow.schemas.DenialOccasion;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.Topic;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the pods the plugin turns away to {@code denials.v1}, keyed by pod (the engine brings each
 * to its cluster's task). The request threads only queue a record; one thread sends them, so a
 * Kafka away for minutes slows no answer: the producer keeps what it cannot send yet (up to its
 * delivery timeout), the queue keeps {@value #QUEUE} more, and what does not fit is counted in
 * {@value #LOST} and logged, never waited for.
 */
public final class KafkaDenialLog implements DenialLog {

  /** Counter of denials not written, tag {@code why}; Prometheus adds {@code _total}. */
  public static final String LOST = "quotaflow.denials.unrecorded";

  static final int QUEUE = 10_000;

  private static final Logger LOG = LoggerFactory.getLogger(KafkaDenialLog.class);
  private static final Duration LOG_EVERY = Duration.ofMinutes(1);

  private final Topic<PodKey, PodDenial> topic;
  private final Producer<PodKey, PodDenial> producer;
  private final Clock clock;
  private final String source;
  private final BlockingQueue<ProducerRecord<PodKey, PodDenial>> queue =
      new ArrayBlockingQueue<>(QUEUE);
  private final Counter queueFull;
  private final Counter sendFailed;
  private final Thread sender;
  private volatile boolean closed;
  private volatile long lastLogged;

  /**
   * @param kafka the engine's Kafka client settings (bootstrap servers, security); serializer and
   *     delivery settings are replaced
   * @param topic {@code denials.v1}
   * @param registry where {@value #LOST} is counted
   * @param clock stamps each denial
   * @param source this instance's name, written with each denial
   */
  public KafkaDenialLog(
      Map<String, String> kafka,
      Topic<PodKey, PodDenial> topic,
      MeterRegistry registry,
      Clock clock,
      String source) {
    this(producer(kafka, topic), topic, registry, clock, source);
  }

  public KafkaDenialLog(
      Producer<PodKey, PodDenial> producer,
      Topic<PodKey, PodDenial> topic,
      MeterRegistry registry,
      Clock clock,
      String source) {
    this.topic = topic;
    this.producer = producer;
    this.clock = clock;
    this.source = source;
    this.queueFull = lost(registry, "queue-full");
    this.sendFailed = lost(registry, "send-failed");
    this.sender = new Thread(this::send, "quotaflow-denials");
    sender.setDaemon(true);
    sender.start();
  }

  private static Producer<PodKey, PodDenial> producer(
      Map<String, String> kafka, Topic<PodKey, PodDenial> topic) {
    // Config provider definitions kept, so secrets referenced as ${dir:...} are resolved.
    final Map<String, Object> config = ClientSettings.knownTo(ProducerConfig.configNames(), kafka);
    config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    config.put(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-denials");
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 50);
    return new KafkaProducer<>(
        config, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  private static Counter lost(MeterRegistry registry, String why) {
    return Counter.builder(LOST)
        .description("Denials not written to denials.v1, so missing from the history")
        .tag("why", why)
        .register(registry);
  }

  @Override
  public void write(Entry entry) {
    if (closed) {
      return;
    }
    final PodDenial denial =
        PodDenial.newBuilder()
            .setGroup(entry.group())
            .setReasonCode(entry.reason().code())
            .setMessage(entry.message())
            .setOccasion(
                entry.endpoint() == Endpoint.FILTER
                    ? DenialOccasion.FILTER
                    : DenialOccasion.WEBHOOK)
            .setPodRequest(new TreeMap<>(entry.request().asMap()))
            .setAt(clock.instant())
            .setSource(source)
            .build();
    final PodKey key = new PodKey(entry.cluster(), entry.pod().namespace(), entry.pod().name());
    if (!queue.offer(new ProducerRecord<>(topic.name(), key, denial))) {
      queueFull.increment();
      warn("the queue of denials to write is full (Kafka away?)", null);
    }
  }

  private void send() {
    while (!closed || !queue.isEmpty()) {
      final ProducerRecord<PodKey, PodDenial> record;
      try {
        record = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (record == null) {
        continue;
      }
      try {
        producer.send(
            record,
            (metadata, failure) -> {
              if (failure != null) {
                sendFailed.increment();
                warn("a denial could not be written", failure);
              }
            });
      } catch (RuntimeException e) {
        sendFailed.increment();
        warn("a denial could not be written", e);
      }
    }
  }

  /** Logs at most once a minute: a Kafka outage would otherwise log every denial. */
  private void warn(String what, Throwable failure) {
    final long now = System.nanoTime();
    if (now - lastLogged < LOG_EVERY.toNanos() && lastLogged != 0) {
      return;
    }
    lastLogged = now;
    LOG.warn(
        "{}: it is missing from {} and from the groups' history (counted in {}){}",
        what,
        topic.name(),
        LOST,
        failure == null ? "" : ": " + failure);
  }

  /** Sends what is queued (waiting up to the producer's own timeouts), then stops. */
  @Override
  public void close() {
    closed = true;
    try {
      sender.join(Duration.ofSeconds(5).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}

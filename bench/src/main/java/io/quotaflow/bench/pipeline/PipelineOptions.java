package io.quotaflow.bench.pipeline;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The pipeline benchmark's options ({@code --name value}, see {@link PipelineBench}) and the engine
 * settings some of them set.
 */
final class PipelineOptions {

  private PipelineOptions() {}

  /** {@code --name value} pairs, the values integers ({@code 100_000} allowed). */
  static Map<String, Integer> parse(final String[] args) {
    final Map<String, Integer> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), Integer.parseInt(args[i + 1].replace("_", "")));
    }
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("expected --name value pairs");
    }
    return options;
  }

  /** Bench option -> the engine setting it sets, and how the option's number is written. */
  private static final Map<String, Map.Entry<String, IntFunction<String>>> SETTING_OPTIONS =
      Map.of(
          "commit-interval-ms", Map.entry("commit.interval.ms", Integer::toString),
          "threads", Map.entry("num.stream.threads", Integer::toString),
          "max-task-idle-ms", Map.entry("max.task.idle.ms", Integer::toString),
          "batch-size", Map.entry("producer.batch.size", Integer::toString),
          "fetch-min-bytes", Map.entry("consumer.fetch.min.bytes", Integer::toString),
          "partitioned-inputs",
              Map.entry("inputs.partitioned.by.cluster", n -> n != 0 ? "true" : "false"),
          "backlog-ms", Map.entry("recompute.backlog.interval", n -> n + "ms"),
          "recompute-ms", Map.entry("recompute.interval", n -> n + "ms"),
          // Issue 30: the history's window store, on by default; --history 0 measures without it.
          "history", Map.entry("history.enabled", n -> n != 0 ? "true" : "false"));

  /** Optional engine settings, to try the effect of one (every engine run gets them). */
  static Map<String, String> engineSettings(final Map<String, Integer> options) {
    final Map<String, String> settings = new TreeMap<>();
    if (options.getOrDefault("heartbeats", 0) != 0) {
      // The engine keeps every cluster's freshness from the markers and requires them, as in a
      // deployment. Its runs start minutes after the inputs were written: a staleness bound of an
      // hour keeps those markers fresh, so reclaim runs as it would on live inputs.
      settings.put("inputs.markers.required", "true");
      settings.put("inputs.max.staleness", "1h");
    }
    SETTING_OPTIONS.forEach(
        (option, setting) -> {
          if (options.containsKey(option)) {
            settings.put(setting.getKey(), setting.getValue().apply(options.get(option)));
          }
        });
    return settings;
  }
}

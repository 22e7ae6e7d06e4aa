package io.quotaflow.admission.http.limits;

import io.quotaflow.admission.http.PluginConfig;

/**
 * How large a request's body may be, by door: the one rule (issue 40.14). The webhooks and the
 * scheduler filter read {@link PluginConfig#MAX_REVIEW_BODY_BYTES}, the largest review the API
 * server sends; every other door, people's included, {@link PluginConfig#MAX_BODY_BYTES}. A caller
 * the machine doors refuse anyway (no client certificate where one is required) gets the smaller
 * limit there too: it cannot make the plugin hold a review's worth of bytes for a 401.
 */
public final class BodyLimits {

  /**
   * How much of a too-large body is read and dropped before the 413, at most: a client still
   * sending when the 413 goes out would otherwise see its connection reset.
   */
  public static final long DRAIN_BYTES = 16L * PluginConfig.MAX_BODY_BYTES;

  /**
   * A door's limit.
   *
   * @param bytes the largest body read
   * @param endpoint the endpoint a 413 is counted under in the request metrics: the machine door's
   *     name, {@code any} for the others
   */
  public record Limit(int bytes, String endpoint) {}

  private static final Limit OTHERS = new Limit(PluginConfig.MAX_BODY_BYTES, "any");

  private BodyLimits() {}

  /** The limit of {@code path}; {@code refused}: the caller is one the machine doors refuse. */
  public static Limit of(String path, boolean refused) {
    final String trimmed = path.startsWith("/") ? path.substring(1) : path;
    final String[] parts = trimmed.split("/", -1);
    if (parts.length != 4 || !parts[0].equals("clusters")) {
      return OTHERS;
    }
    final String door = machineDoor(parts);
    if (door == null) {
      return OTHERS;
    }
    return new Limit(
        refused ? PluginConfig.MAX_BODY_BYTES : PluginConfig.MAX_REVIEW_BODY_BYTES, door);
  }

  /**
   * The name of the machine door {@code parts} (the path's segments after {@code
   * /clusters/<cluster>/}) name: the webhooks and the scheduler filter, called by machines only;
   * null for any other.
   */
  public static String machineDoor(String[] parts) {
    if (parts[2].equals("admission") && parts[3].equals("pods")) {
      return "admission-pods";
    }
    if (parts[2].equals("admission") && parts[3].equals("quotas")) {
      return "admission-quotas";
    }
    if (parts[2].equals("scheduler") && parts[3].equals("filter")) {
      return "scheduler-filter";
    }
    return null;
  }
}

package io.quotaflow.config;

import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@link QuotaSettings} say quota means, as every reader of them computes with it: two
 * readers given the same settings hold equal semantics.
 *
 * @param options the switches of the computation (reclaim's protected pods at their defaults: the
 *     engine adds its own)
 * @param deviceClasses what devices claimed through DRA count as, unmapped classes included
 * @param fairShareHalfLife the half-life of fair share's memory; empty when it has none
 */
public record QuotaSemantics(
    QuotaOptions options, DeviceClassMappings deviceClasses, Optional<Duration> fairShareHalfLife) {

  /** Requires every part. */
  public QuotaSemantics {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(deviceClasses, "deviceClasses");
    Objects.requireNonNull(fairShareHalfLife, "fairShareHalfLife");
  }
}

package io.quotaflow.reservation;

/** The rules a node reservation must keep; {@link #id()} is stable and safe to match on. */
public enum ReservationRule {
  /** The annotation reads in full (JSON, known fields, a policy, quantities, a numeric value). */
  READABLE("reservation-readable"),
  /** Only a leaf group, not the system group, reserves: pods run in leaves. */
  ON_LEAF("reservation-on-leaf"),
  /** The percentage's value is within [0, 1]. */
  PERCENTAGE_IN_RANGE("reservation-percentage-in-range"),
  /** The reservation is not above the group's max in any dimension the max bounds. */
  WITHIN_MAX("reservation-within-max"),
  /** The reservation is not above the cluster total in any dimension. */
  WITHIN_CLUSTER("reservation-within-cluster");

  private final String id;

  ReservationRule(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }
}

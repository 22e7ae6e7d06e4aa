/**
 * Node reservations (Volcano's queue resource reservation as a quota-group feature,
 * docs/semantics.md section 14): a group's annotation {@code quotaflow.io/reservation} asks for
 * nodes whose allocatable covers an amount or a share of the cluster; the nodes chosen are locked
 * for the group's pods. This package holds the rules ({@link ReservationRules}), the target ({@link
 * ReservationTarget}), the choice of nodes for one reservation ({@link LockChooser}), the plan of a
 * whole cluster in age order under the locked-share cap ({@link ReservationPlanner}), the state the
 * engine keeps event by event ({@link ClusterReservations}), what the scheduler filter refuses
 * ({@link LockedNodes}) and the one-call computation {@code simulate} uses ({@link
 * ReservationCalculator}). Pure: no clock (callers pass the time), no I/O.
 */
package io.quotaflow.reservation;

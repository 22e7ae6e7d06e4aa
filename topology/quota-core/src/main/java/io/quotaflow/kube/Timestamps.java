package io.quotaflow.kube;

import io.quotaflow.quota.SpecProblem;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/** Kubernetes timestamps (RFC 3339) as instants; an unreadable one becomes a problem. */
final class Timestamps {

  private Timestamps() {}

  static Optional<Instant> read(String text, String field, List<SpecProblem> problems) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      problems.add(new SpecProblem(field, "\"" + text + "\" is not an RFC 3339 timestamp"));
      return Optional.empty();
    }
  }
}

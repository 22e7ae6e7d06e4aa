package io.quotaflow.source;

import io.quotaflow.quota.SpecProblem;
import java.util.List;
import java.util.Objects;

/**
 * One object as a record of its topic, with the fields that could not be read (already carried in
 * the value, kept here for the warning that names them).
 *
 * @param key the record key
 * @param value the record value
 * @param problems the object's unreadable fields
 */
record SourceRecord<K, V>(K key, V value, List<SpecProblem> problems) {
  SourceRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    problems = List.copyOf(problems);
  }
}

package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who the API server says owns a field of an object: the managers of its {@code
 * metadata.managedFields} whose {@code fieldsV1} set holds the field or something under it. The API
 * server gives an Update's field manager (the {@code fieldManager} parameter, else the client's
 * user agent up to its first '/') the fields the update changed. Pure.
 */
final class FieldOwners {

  private FieldOwners() {}

  /** Whether the object carries managed fields at all (an API server without them has none). */
  static boolean tracked(final GenericKubernetesResource object) {
    final List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    return entries != null && !entries.isEmpty();
  }

  /**
   * The managers owning any of {@code paths} (each a field path, {@code [metadata, annotations,
   * NAME]} or {@code [status, used]}), sorted.
   */
  static Set<String> of(final GenericKubernetesResource object, final List<List<String>> paths) {
    final Set<String> owners = new TreeSet<>();
    final List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    if (entries == null) {
      return owners;
    }
    for (final ManagedFieldsEntry entry : entries) {
      final FieldsV1 fields = entry.getFieldsV1();
      if (entry.getManager() == null || fields == null) {
        continue;
      }
      for (final List<String> path : paths) {
        if (holds(fields.getAdditionalProperties(), path)) {
          owners.add(entry.getManager());
        }
      }
    }
    return owners;
  }

  private static boolean holds(final Map<String, Object> set, final List<String> path) {
    Object node = set;
    for (final String name : path) {
      if (!(node instanceof Map<?, ?> map) || !map.containsKey("f:" + name)) {
        return false;
      }
      node = map.get("f:" + name);
    }
    return true;
  }
}

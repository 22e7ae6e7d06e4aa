package io.quotaflow.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One Kubernetes object read from a manifest file, with where it was found.
 *
 * @param file the file as the user named it (or as found in a directory the user named)
 * @param document the 1-based index of the YAML document ({@code ---} separated) in the file
 * @param item the 1-based index in the {@code items} of a {@code kind: List} document, if any
 * @param object a fabric8 {@code Pod}, {@code Node}, or a {@code GenericKubernetesResource} for an
 *     ElasticQuota
 */
public record Manifest(String file, int document, OptionalInt item, HasMetadata object) {

  public Manifest {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(object, "object");
  }

  /** Where the object is, for messages: {@code pods.yaml, document 3, item 2}. */
  public String location() {
    return location(file, document, item);
  }

  /** The object's kind and name, for messages: {@code Pod batch/etl-1}, {@code Node gpu-1}. */
  public String describe() {
    final String namespace =
        object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    final String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    final String qualified =
        (namespace == null
                    || namespace.isEmpty()
                    || "Node".equals(object.getKind())
                    || "Namespace".equals(object.getKind())
                ? ""
                : namespace + "/")
            + (name == null ? "(no name)" : name);
    return object.getKind() + " " + qualified;
  }

  static String location(String file, int document, OptionalInt item) {
    return file + ", document " + document + (item.isPresent() ? ", item " + item.getAsInt() : "");
  }
}

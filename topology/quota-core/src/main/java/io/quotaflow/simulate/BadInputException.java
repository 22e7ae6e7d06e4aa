package io.quotaflow.simulate;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Input that simulate cannot compute with: a file that cannot be read, YAML that does not parse, or
 * a Pod, Node or ElasticQuota field that cannot be read as what it must be (e.g. a quantity). An
 * invalid quota tree is not bad input: it is computed and reported.
 *
 * <p>The message is one line naming the file, the document (1-based), the object and the field.
 */
public final class BadInputException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final OptionalInt document;
  private final Optional<String> field;
  private final String reason;

  private BadInputException(
      String file, OptionalInt document, Optional<String> field, String message, String reason) {
    super(message);
    this.file = Objects.requireNonNull(file, "file");
    this.document = document;
    this.field = field;
    this.reason = reason;
  }

  /** A problem with a whole file (missing, unreadable). */
  static BadInputException inFile(String file, String reason) {
    return new BadInputException(
        file, OptionalInt.empty(), Optional.empty(), file + ": " + reason, reason);
  }

  /** A problem with a document that has no object yet (YAML syntax, not an object). */
  static BadInputException inDocument(String file, int document, OptionalInt item, String reason) {
    return new BadInputException(
        file,
        OptionalInt.of(document),
        Optional.empty(),
        Manifest.location(file, document, item) + ": " + reason,
        reason);
  }

  /** A problem with one field of an object. */
  static BadInputException inField(
      String file, int document, OptionalInt item, String object, String field, String reason) {
    return new BadInputException(
        file,
        OptionalInt.of(document),
        Optional.of(field),
        Manifest.location(file, document, item) + " (" + object + "): " + field + ": " + reason,
        reason);
  }

  /** A problem with one field of a manifest's object. */
  static BadInputException inField(Manifest manifest, String field, String reason) {
    return inField(
        manifest.file(), manifest.document(), manifest.item(), manifest.describe(), field, reason);
  }

  public String file() {
    return file;
  }

  /** The 1-based document index; empty for problems with the whole file. */
  public OptionalInt document() {
    return document;
  }

  /** The field path, e.g. {@code spec.containers[0].resources.requests[cpu]}. */
  public Optional<String> field() {
    return field;
  }

  /** What is wrong, without the location. */
  public String reason() {
    return reason;
  }
}

package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A key repeated in one mapping of YAML or JSON input. Readers refuse repeated keys rather than
 * read them with the last value winning: two manifests concatenated without {@code ---} form one
 * mapping whose second {@code kind} and {@code metadata} would otherwise silently replace the first
 * object's. A reader enables {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION} on its mapper and
 * words the parser's error with {@link #in}.
 *
 * @param path a Kubernetes-style path to the key: {@code kind}, {@code spec.containers[0].name},
 *     with keys that hold a dot or a slash in brackets ({@code
 *     metadata.labels[app.kubernetes.io/x]})
 * @param topLevel whether the key is one of a document's own keys ({@code kind}, {@code metadata})
 * @param line the 1-based line of the repeated (second) key, when the parser knows it
 */
public record RepeatedKey(String path, boolean topLevel, OptionalInt line) {

  // Jackson's wording for STRICT_DUPLICATE_DETECTION (JsonReadContext), pinned by the tests.
  private static final String JACKSON_PREFIX = "Duplicate field '";

  public RepeatedKey {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(line, "line");
  }

  /**
   * The repeated key a parser error reports, also when data binding wrapped it; empty for any other
   * error.
   *
   * @param lineOffset added to the parser's line, for text read from the middle of a file
   */
  public static Optional<RepeatedKey> in(JsonProcessingException e, int lineOffset) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      // Data binding wraps the parser's error in a JsonMappingException, which has no parser.
      if (cause instanceof StreamReadException read) {
        final Optional<RepeatedKey> key = reported(read, lineOffset);
        if (key.isPresent()) {
          return key;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<RepeatedKey> reported(StreamReadException read, int lineOffset) {
    final String message = read.getOriginalMessage();
    if (message == null || !message.startsWith(JACKSON_PREFIX)) {
      return Optional.empty();
    }
    final OptionalInt line =
        read.getLocation() == null || read.getLocation().getLineNr() <= 0
            ? OptionalInt.empty()
            : OptionalInt.of(read.getLocation().getLineNr() + lineOffset);
    final JsonStreamContext context =
        read.getProcessor() == null ? null : read.getProcessor().getParsingContext();
    if (context != null && context.inObject()) {
      return Optional.of(new RepeatedKey(path(context), context.getParent().inRoot(), line));
    }
    final int end = message.lastIndexOf('\'');
    return Optional.of(
        new RepeatedKey(
            end > JACKSON_PREFIX.length()
                ? message.substring(JACKSON_PREFIX.length(), end)
                : "(unknown)",
            false,
            line));
  }

  /** {@code repeated key metadata.name at line 7; a key may appear once in a mapping}. */
  public String describe() {
    return "repeated key "
        + path
        + (line.isPresent() ? " at line " + line.getAsInt() : "")
        + "; a key may appear once in a mapping";
  }

  private static String path(JsonStreamContext context) {
    final Deque<String> parts = new ArrayDeque<>();
    for (JsonStreamContext at = context; at != null && !at.inRoot(); at = at.getParent()) {
      if (at.inArray()) {
        parts.addFirst("[" + at.getCurrentIndex() + "]");
        continue;
      }
      final String name = String.valueOf(at.getCurrentName());
      if (name.contains(".") || name.contains("/")) {
        parts.addFirst("[" + name + "]");
      } else {
        parts.addFirst(at.getParent().inRoot() ? name : "." + name);
      }
    }
    return String.join("", parts);
  }
}

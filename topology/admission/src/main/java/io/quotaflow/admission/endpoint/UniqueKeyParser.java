package io.quotaflow.admission.endpoint;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A parser that fails on an object repeating a key, as Jackson's strict duplicate detection does,
 * without its cost on the pod webhook's hot path: Jackson builds a hash set for every object of
 * three keys or more (7 % of the server's allocation), where this keeps each open object's keys in
 * a reused array and only builds a set for an object of more than {@value #LINEAR} keys. It checks
 * the tokens that pass through {@link #nextToken} and {@link #skipChildren}; a caller must read
 * through nothing else (no data binding), and words no error itself: a repeated key is a {@link
 * RepeatedKeyException} for the caller to read the body again strictly.
 */
public final class UniqueKeyParser extends JsonParserDelegate {

  /** Up to this many keys an object's keys are compared one by one. */
  private static final int LINEAR = 16;

  /** A key seen twice in one object. */
  static final class RepeatedKeyException extends IOException {
    RepeatedKeyException(String key) {
      super("repeated key " + key, null);
    }
  }

  private String[][] keys = new String[8][];
  private int[] counts = new int[8];
  private Set<?>[] large = new Set<?>[8];

  /** The depth of the innermost open object, -1 outside any. */
  private int depth = -1;

  public UniqueKeyParser(JsonParser parser) {
    super(parser);
  }

  @Override
  public JsonToken nextToken() throws IOException {
    final JsonToken token = delegate.nextToken();
    if (token == JsonToken.FIELD_NAME) {
      add(delegate.currentName());
    } else if (token == JsonToken.START_OBJECT) {
      open();
    } else if (token == JsonToken.END_OBJECT) {
      depth--;
    }
    return token;
  }

  /** Skips as Jackson's parsers do, but through {@link #nextToken}, so skipped keys are checked. */
  @Override
  public JsonParser skipChildren() throws IOException {
    final JsonToken current = currentToken();
    if (current != JsonToken.START_OBJECT && current != JsonToken.START_ARRAY) {
      return this;
    }
    int open = 1;
    while (open > 0) {
      final JsonToken token = nextToken();
      if (token == null) {
        throw new IOException("end of input in a skipped value");
      }
      if (token.isStructStart()) {
        open++;
      } else if (token.isStructEnd()) {
        open--;
      }
    }
    return this;
  }

  private void open() {
    depth++;
    if (depth == counts.length) {
      keys = Arrays.copyOf(keys, depth * 2);
      counts = Arrays.copyOf(counts, depth * 2);
      large = Arrays.copyOf(large, depth * 2);
    }
    counts[depth] = 0;
    large[depth] = null;
  }

  @SuppressWarnings("unchecked")
  private void add(String key) throws RepeatedKeyException {
    final int count = counts[depth];
    if (count < LINEAR) {
      String[] level = keys[depth];
      if (level == null) {
        level = new String[LINEAR];
        keys[depth] = level;
      }
      for (int i = 0; i < count; i++) {
        if (level[i].equals(key)) {
          throw new RepeatedKeyException(key);
        }
      }
      level[count] = key;
    } else {
      Set<String> set = (Set<String>) large[depth];
      if (set == null) {
        set = new HashSet<>(Arrays.asList(keys[depth]));
        large[depth] = set;
      }
      if (!set.add(key)) {
        throw new RepeatedKeyException(key);
      }
    }
    counts[depth] = count + 1;
  }
}

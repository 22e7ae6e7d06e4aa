package io.quotaflow.engine.store;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte encoding of store keys: each text component is its UTF-8 bytes with every 0x00 written
 * as 0x00 0xFF, followed by the terminator 0x00 0x01. Byte order then equals component-wise text
 * order, and the encoding of the first components of a key is an exact prefix of the key, so "every
 * key of cluster X" is a prefix scan that can never match cluster "X2".
 */
final class OrderedKeys {
  private static final byte ESCAPE = 0x00;
  private static final byte ESCAPED_ZERO = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;

  private OrderedKeys() {}

  /**
   * The encoding of {@code components}, in order. Written into an array sized up front: every store
   * write encodes a key, and a ByteArrayOutputStream took a lock per byte.
   */
  static byte[] encode(final String... components) {
    final byte[][] parts = new byte[components.length][];
    int size = 0;
    for (int c = 0; c < components.length; c++) {
      parts[c] = components[c].getBytes(StandardCharsets.UTF_8);
      size += parts[c].length + 2;
      for (final byte b : parts[c]) {
        if (b == ESCAPE) {
          size++;
        }
      }
    }
    final byte[] out = new byte[size];
    int i = 0;
    for (final byte[] part : parts) {
      for (final byte b : part) {
        out[i++] = b;
        if (b == ESCAPE) {
          out[i++] = ESCAPED_ZERO;
        }
      }
      out[i++] = ESCAPE;
      out[i++] = TERMINATOR;
    }
    return out;
  }

  /**
   * The components of an encoded key.
   *
   * @throws IllegalArgumentException when the bytes are not such an encoding
   */
  static List<String> decode(final byte[] bytes) {
    final List<String> components = new ArrayList<>(4);
    final ByteArrayOutputStream current = new ByteArrayOutputStream(32);
    int i = 0;
    while (i < bytes.length) {
      final byte b = bytes[i];
      if (b != ESCAPE) {
        current.write(b);
        i++;
        continue;
      }
      if (i + 1 >= bytes.length) {
        throw new IllegalArgumentException("Store key ends inside an escape sequence");
      }
      final byte next = bytes[i + 1];
      if (next == ESCAPED_ZERO) {
        current.write(ESCAPE);
      } else if (next == TERMINATOR) {
        components.add(current.toString(StandardCharsets.UTF_8));
        current.reset();
      } else {
        throw new IllegalArgumentException(
            String.format("Store key has an invalid escape 0x00 0x%02X", next));
      }
      i += 2;
    }
    if (current.size() > 0) {
      throw new IllegalArgumentException("Store key has an unterminated component");
    }
    return components;
  }

  /** The components of an encoded key, which must be exactly {@code count}. */
  static List<String> decode(final byte[] bytes, final int count, final String what) {
    final List<String> components = decode(bytes);
    if (components.size() != count) {
      throw new IllegalArgumentException(
          what + " key has " + components.size() + " components instead of " + count);
    }
    return components;
  }
}

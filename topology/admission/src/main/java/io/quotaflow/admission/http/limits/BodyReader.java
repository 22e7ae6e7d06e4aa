package io.quotaflow.admission.http.limits;

import io.quotaflow.admission.http.PluginConfig;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.io.Content;

/**
 * Reads a request's body without holding a thread while it arrives (issue 25): chunks are taken as
 * Jetty has them and the reader asks to be called back for more, so a client trickling its body
 * parks no worker. The body is kept up to {@code max} bytes; a larger one is read on, and thrown
 * away, up to {@code drainLimit} (a client still sending when the 413 goes out would otherwise see
 * its connection reset), and completes as null.
 */
public final class BodyReader implements Runnable {

  private final Content.Source source;
  private final int max;
  private final long drainLimit;
  private final long length;
  private final CompletableFuture<byte[]> done = new CompletableFuture<>();
  private byte[] bytes;
  private int size;
  private long drained;
  private boolean tooLarge;

  private BodyReader(Content.Source source, long length, int max, long drainLimit) {
    this.source = source;
    this.max = max;
    this.drainLimit = drainLimit;
    this.length = length;
    this.tooLarge = length > max;
    // The length is known as the API server sends it: one array of that size, no copies; but a
    // caller that declares a length and sends nothing holds no more than it could before the
    // reviews' larger limit (issue 40.14): beyond 1 MiB the array grows once, to the length, as
    // the bytes arrive.
    this.bytes =
        new byte
            [tooLarge
                ? 0
                : length >= 0 ? (int) Math.min(length, PluginConfig.MAX_BODY_BYTES) : 8 * 1024];
  }

  /**
   * The body of {@code source}, whose length is {@code length} (-1 when unknown); null when it is
   * larger than {@code max}.
   */
  public static CompletableFuture<byte[]> read(
      Content.Source source, long length, int max, long drainLimit) {
    final BodyReader reader = new BodyReader(source, length, max, drainLimit);
    reader.run();
    return reader.done;
  }

  @Override
  public void run() {
    while (!done.isDone()) {
      final Content.Chunk chunk = source.read();
      if (chunk == null) {
        source.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        done.completeExceptionally(chunk.getFailure());
        return;
      }
      take(chunk.getByteBuffer());
      final boolean last = chunk.isLast();
      chunk.release();
      if (last) {
        done.complete(tooLarge ? null : bytes.length == size ? bytes : Arrays.copyOf(bytes, size));
      } else if (tooLarge && drained > drainLimit) {
        done.complete(null);
      }
    }
  }

  private void take(ByteBuffer buffer) {
    final int n = buffer.remaining();
    if (!tooLarge && (long) size + n > max) {
      tooLarge = true;
      drained = size;
      bytes = new byte[0];
    }
    if (tooLarge) {
      drained += n;
      buffer.position(buffer.limit());
      return;
    }
    if (size + n > bytes.length) {
      final long wanted = Math.max(size + n, length > size + n ? length : bytes.length * 2L);
      bytes = Arrays.copyOf(bytes, (int) Math.min(max, wanted));
    }
    buffer.get(bytes, size, n);
    size += n;
  }
}

package io.quotaflow.admission.people.view;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The web view's open Server-Sent Event streams, at most {@code maxStreams} at once. Each stream
 * follows one cluster; events are written without blocking, one at a time per stream, and a stream
 * whose reader falls {@value #MAX_QUEUED} events behind is ended (the browser reconnects and reads
 * the tree afresh). {@link #close} ends every stream at once, so that the server can stop.
 */
public final class ViewStreams implements AutoCloseable {

  /** Events queued for one slow stream before it is ended. */
  static final int MAX_QUEUED = 256;

  private final int maxStreams;
  private final int perClient;
  private final Set<Stream> streams = new CopyOnWriteArraySet<>();
  private volatile boolean closed;

  /** Why a stream was not opened. */
  public enum Refusal {
    /** {@code maxStreams} streams are open, or the view is closing. */
    FULL,
    /** The client holds {@code perClient} streams already. */
    CLIENT_FULL
  }

  /** Streams bounded by {@code maxStreams}, and by {@code perClient} per client address. */
  public ViewStreams(int maxStreams, int perClient) {
    this.maxStreams = maxStreams;
    this.perClient = perClient;
  }

  /** Streams bounded by {@code maxStreams} only. */
  public ViewStreams(int maxStreams) {
    this(maxStreams, maxStreams);
  }

  /**
   * Starts an event stream on {@code response} following {@code cluster}, beginning with {@code
   * first} events. The caller completes nothing: {@code callback} is completed when the stream
   * ends.
   *
   * @param client who asks (its address), bounded to {@code perClient} streams
   * @return why no stream was opened, with nothing written (the caller answers then); empty when it
   *     was
   */
  public Optional<Refusal> open(
      String cluster, String client, Response response, Callback callback, List<String> first) {
    synchronized (this) {
      if (closed || streams.size() >= maxStreams) {
        return Optional.of(Refusal.FULL);
      }
      if (streams.stream().filter(s -> s.client.equals(client)).count() >= perClient) {
        return Optional.of(Refusal.CLIENT_FULL);
      }
      final Stream stream = new Stream(cluster, client, response, callback);
      streams.add(stream);
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      SecurityHeaders.ALL.forEach((name, value) -> response.getHeaders().put(name, value));
      // The browser retries a lost stream after 2 s; the first event tells it where it is.
      stream.send("retry: 2000\n\n");
      first.forEach(stream::send);
      return Optional.empty();
    }
  }

  /** How many streams are open. */
  public int open() {
    return streams.size();
  }

  /** Sends event {@code name} with JSON {@code data} to every stream following {@code cluster}. */
  public void send(String cluster, String name, String data) {
    final String event = event(name, data);
    for (final Stream stream : streams) {
      if (stream.cluster.equals(cluster)) {
        stream.send(event);
      }
    }
  }

  /** The clusters some stream follows. */
  public Set<String> followed() {
    final Set<String> clusters = new java.util.HashSet<>();
    streams.forEach(stream -> clusters.add(stream.cluster));
    return clusters;
  }

  /** One event in the text/event-stream format; {@code data} must be one line (compact JSON). */
  public static String event(String name, String data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  /** Ends every stream and refuses new ones. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    streams.forEach(Stream::end);
  }

  /** One open stream; its writes are chained so that at most one is pending. */
  private final class Stream implements Callback {
    private final String cluster;
    private final String client;
    private final Response response;
    private final Callback done;
    private final Deque<ByteBuffer> queue = new ArrayDeque<>();
    private boolean writing;
    private boolean ending;
    private boolean ended;

    Stream(String cluster, String client, Response response, Callback done) {
      this.cluster = cluster;
      this.client = client;
      this.response = response;
      this.done = done;
    }

    void send(String event) {
      final ByteBuffer bytes = ByteBuffer.wrap(event.getBytes(StandardCharsets.UTF_8));
      synchronized (this) {
        if (ended || ending) {
          return;
        }
        if (writing) {
          if (queue.size() >= MAX_QUEUED) {
            ending = true;
            queue.clear();
            return;
          }
          queue.add(bytes);
          return;
        }
        writing = true;
      }
      response.write(false, bytes, this);
    }

    /** Ends the response after the pending write, if any. */
    void end() {
      synchronized (this) {
        if (ended) {
          return;
        }
        ending = true;
        queue.clear();
        if (writing) {
          return;
        }
        writing = true;
      }
      response.write(true, ByteBuffer.allocate(0), Callback.from(this::finished, this::failed));
    }

    @Override
    public void succeeded() {
      final ByteBuffer next;
      final boolean last;
      synchronized (this) {
        next = queue.poll();
        last = next == null && ending;
        if (next == null && !ending) {
          writing = false;
          return;
        }
      }
      if (last) {
        response.write(true, ByteBuffer.allocate(0), Callback.from(this::finished, this::failed));
      } else {
        response.write(false, next, this);
      }
    }

    @Override
    public void failed(Throwable cause) {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
        queue.clear();
      }
      streams.remove(this);
      done.failed(cause);
    }

    private void finished() {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
      }
      streams.remove(this);
      done.succeeded();
    }
  }
}

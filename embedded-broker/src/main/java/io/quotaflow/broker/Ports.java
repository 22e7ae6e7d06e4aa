package io.quotaflow.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses and probes TCP ports on the loopback address.
 *
 * <p>A KRaft controller listener cannot reliably be given port 0, so free ports are chosen here:
 * the operating system hands out unused ports, which are released again right away. Another process
 * may take one before the broker binds it; the broker retries with new ports then.
 */
final class Ports {

  static final String HOST = "127.0.0.1";

  private Ports() {}

  /** Returns {@code count} distinct ports that were free a moment ago. */
  static List<Integer> free(final int count) {
    final List<ServerSocket> sockets = new ArrayList<>(count);
    try {
      for (int i = 0; i < count; i++) {
        final ServerSocket socket = new ServerSocket();
        sockets.add(socket);
        socket.bind(new InetSocketAddress(loopback(), 0));
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not find a free port on " + HOST, e);
    } finally {
      sockets.forEach(Ports::closeQuietly);
    }
  }

  /**
   * Whether {@code port} can be bound on the loopback address now. Address reuse is on, as it is
   * for the broker's own listeners, so a port lingering in TIME_WAIT counts as free.
   */
  static boolean isFree(final int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(loopback(), port));
      return true;
    } catch (final BindException e) {
      return false;
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not probe port " + port + " on " + HOST, e);
    }
  }

  private static InetAddress loopback() {
    try {
      // The IPv4 literal, not getLoopbackAddress(): the broker advertises 127.0.0.1 explicitly.
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (final UnknownHostException e) {
      throw new IllegalStateException("A four-byte address is always valid", e);
    }
  }

  private static void closeQuietly(final ServerSocket socket) {
    try {
      socket.close();
    } catch (final IOException e) {
      // Nothing to do: the port is released either way when the process ends.
    }
  }
}

package io.quotaflow.broker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses and probes TCP ports on the loopback address.
 *
 * <p>A KRaft controller listener cannot reliably be given port 0, so free ports are chosen here and
 * released again right away. They are chosen below the system's ephemeral range (where the kernel
 * takes the local port of every outgoing connection): a port from that range was taken by some
 * client's connection between its choice and the controller's bind, and a controller that cannot
 * bind ends the JVM (a fresh-clone run, session 18). Another test may still take one of these; the
 * broker retries with new ports then.
 */
public final class Ports {

  static final String HOST = "127.0.0.1";

  private Ports() {}

  /** The first port of the range chosen from, below the ephemeral range's 12,768 ports. */
  private static final int CHOSEN_RANGE = 12_768;

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  /** Returns {@code count} distinct ports that were free a moment ago. */
  public static List<Integer> free(final int count) {
    final int end = ephemeralStart();
    final int start = Math.max(1_024, end - CHOSEN_RANGE);
    final List<ServerSocket> sockets = new ArrayList<>(count);
    try {
      for (int tries = 0; sockets.size() < count && tries < 200; tries++) {
        final ServerSocket socket = new ServerSocket();
        try {
          socket.bind(
              new InetSocketAddress(
                  loopback(),
                  ThreadLocalRandom.current().nextInt(start, Math.max(end, start + 1))));
          sockets.add(socket);
        } catch (final BindException taken) {
          closeQuietly(socket);
        }
      }
      // A machine with that range in use: let the kernel choose, from its ephemeral range.
      while (sockets.size() < count) {
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

  /** Where the kernel's ephemeral ports start (Linux); 32768, the usual start, elsewhere. */
  static int ephemeralStart() {
    // Read by line: Files.readString of this sysctl file returned "3" on Linux with Java 17.
    try (BufferedReader range = Files.newBufferedReader(EPHEMERAL_RANGE)) {
      return Integer.parseInt(range.readLine().trim().split("\\s+")[0]);
    } catch (final IOException | RuntimeException e) {
      return 32_768;
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

package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortsTest {

  @Test
  void freePortsAreDistinctAndBindable() {
    final List<Integer> ports = Ports.free(3);

    assertThat(ports).hasSize(3).doesNotHaveDuplicates();
    assertThat(ports).allSatisfy(port -> assertThat(Ports.isFree(port)).isTrue());
  }

  @Test
  void freePortsAreChosenBelowTheRangeOutgoingConnectionsTakeTheirsFrom() {
    assertThat(Ports.free(4))
        .allSatisfy(port -> assertThat(port).isLessThan(Ports.ephemeralStart()));
  }

  @Test
  void aPortSomeoneListensOnIsNotFree() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));

      assertThat(Ports.isFree(taken.getLocalPort())).isFalse();
    }
  }
}

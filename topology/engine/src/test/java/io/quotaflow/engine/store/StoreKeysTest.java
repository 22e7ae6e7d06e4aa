package io.quotaflow.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.engine.store.InputId.InputKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The store keys' encoding keeps text order and makes a cluster (or a group) an exact prefix: a
 * scan of cluster "a" never sees cluster "ab" or "a\0b".
 */
class StoreKeysTest {

  @Property
  void groupIdsRoundTrip(
      @ForAll("names") final String cluster, @ForAll("names") final String name) {
    final GroupId id = new GroupId(cluster, name);

    assertThat(GroupId.serde().deserializer().deserialize("t", bytes(id))).isEqualTo(id);
  }

  @Property
  void byteOrderIsClusterThenNameOrder(
      @ForAll("names") final String c1,
      @ForAll("names") final String n1,
      @ForAll("names") final String c2,
      @ForAll("names") final String n2) {
    final GroupId a = new GroupId(c1, n1);
    final GroupId b = new GroupId(c2, n2);

    final int byBytes = Integer.signum(Bytes.wrap(bytes(a)).compareTo(Bytes.wrap(bytes(b))));
    final int byText =
        Integer.signum(utf8Order(c1, c2) != 0 ? utf8Order(c1, c2) : utf8Order(n1, n2));

    assertThat(byBytes).isEqualTo(byText);
  }

  @Property
  void aClusterPrefixMatchesExactlyTheKeysOfThatCluster(
      @ForAll("names") final String prefixCluster,
      @ForAll("names") final String cluster,
      @ForAll("names") final String name) {
    final byte[] prefix = KeyPrefixes.cluster().serialize("t", prefixCluster);
    final byte[] key = bytes(new GroupId(cluster, name));

    assertThat(startsWith(key, prefix)).isEqualTo(prefixCluster.equals(cluster));
  }

  @Test
  void theEncodingIsPinned() {
    // Keys live in changelogs and RocksDB: their bytes must not change between versions.
    assertThat(OrderedKeys.encode("a\u0000", "\u00e9", ""))
        .isEqualTo(
            new byte[] {
              0x61, 0x00, (byte) 0xFF, 0x00, 0x01, (byte) 0xC3, (byte) 0xA9, 0x00, 0x01, 0x00, 0x01
            });
  }

  @Test
  void aGroupPrefixMatchesOnlyThatGroupsPods() {
    final byte[] prefix = KeyPrefixes.group().serialize("t", new GroupId("east", "team"));

    assertThat(startsWith(podKey("east", "team", "ns", "p"), prefix)).isTrue();
    assertThat(startsWith(podKey("east", "team-b", "ns", "p"), prefix)).isFalse();
    assertThat(startsWith(podKey("east2", "team", "ns", "p"), prefix)).isFalse();
  }

  @Test
  void everyKeyTypeRoundTrips() {
    final PodId pod = new PodId("east", "ns\u0000x", "p");
    final GroupPodId groupPod = new GroupPodId("east", "team", "ns", "p");
    final InputId input = new InputId("east", InputKind.QUOTA, "", "team");

    assertThat(
            PodId.serde()
                .deserializer()
                .deserialize("t", PodId.serde().serializer().serialize("t", pod)))
        .isEqualTo(pod);
    assertThat(
            GroupPodId.serde()
                .deserializer()
                .deserialize("t", GroupPodId.serde().serializer().serialize("t", groupPod)))
        .isEqualTo(groupPod);
    assertThat(
            InputId.serde()
                .deserializer()
                .deserialize("t", InputId.serde().serializer().serialize("t", input)))
        .isEqualTo(input);
  }

  @Test
  void bytesOfAnotherKeyTypeAreRefused() {
    final byte[] pod = PodId.serde().serializer().serialize("t", new PodId("a", "b", "c"));

    assertThatThrownBy(() -> GroupId.serde().deserializer().deserialize("t", pod))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 components instead of 2");
  }

  @Provide
  Arbitrary<String> names() {
    // Small alphabets make equal and prefix-related names likely; NUL and non-ASCII included.
    return Arbitraries.strings().withChars('a', 'b', '\u0000', '\u00e9', '\uffff').ofMaxLength(4);
  }

  private static byte[] bytes(final GroupId id) {
    return GroupId.serde().serializer().serialize("t", id);
  }

  private static byte[] podKey(
      final String cluster, final String group, final String namespace, final String name) {
    return GroupPodId.serde()
        .serializer()
        .serialize("t", new GroupPodId(cluster, group, namespace, name));
  }

  private static boolean startsWith(final byte[] key, final byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(Arrays.copyOf(key, prefix.length), prefix);
  }

  /** Text order as UTF-8 bytes compare (unsigned), which is code point order. */
  private static int utf8Order(final String a, final String b) {
    return Bytes.wrap(a.getBytes(StandardCharsets.UTF_8))
        .compareTo(Bytes.wrap(b.getBytes(StandardCharsets.UTF_8)));
  }
}

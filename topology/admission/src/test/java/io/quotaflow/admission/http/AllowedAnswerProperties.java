package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.machine.AdmissionReviews;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The allowing answer without warnings is put together from fixed bytes for a printable ASCII uid:
 * for any uid it is the generator's answer, byte for byte.
 */
class AllowedAnswerProperties {

  @Property(tries = 1000)
  void anyUidIsAnsweredAsTheGeneratorWritesIt(@ForAll("uids") String uid) {
    assertThat(AdmissionReviews.allowed(uid, List.of()))
        .isEqualTo(AdmissionReviews.written(uid, List.of()));
  }

  @Provide
  Arbitrary<String> uids() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(40),
        Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(10),
        Arbitraries.strings().all().ofMaxLength(10),
        Arbitraries.of("5f2a8c1e-3b4d-4e6f-9a0b-1c2d3e4f5a6b", "", "\"", "\\", "\u007f"));
  }
}

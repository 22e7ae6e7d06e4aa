package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.serde.RecordRole;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

class TopicCatalogueTest {
  private final TopicCatalogue catalogue = TopicCatalogue.withDefaultPrefix();

  @Test
  void topicNamesCarryTheDefaultPrefixAndAVersion() {
    assertThat(catalogue.all())
        .extracting(Topic::name)
        .containsExactly(
            "quotaflow.pods.v1",
            "quotaflow.quotas.v1",
            "quotaflow.nodes.v1",
            "quotaflow.profiles.v1",
            "quotaflow.podgroups.v1",
            "quotaflow.deviceclasses.v1",
            "quotaflow.resourceclaims.v1",
            "quotaflow.resourceclaimtemplates.v1",
            "quotaflow.resourceslices.v1",
            "quotaflow.runtime.v1",
            "quotaflow.pod-classes.v1",
            "quotaflow.evictions.v1",
            "quotaflow.eviction-results.v1",
            "quotaflow.denials.v1",
            "quotaflow.rejected.v1");
  }

  @Test
  void aConfiguredPrefixReplacesTheDefault() {
    final TopicCatalogue staging = TopicCatalogue.withPrefix("staging_qf-");

    assertThat(staging.prefix()).isEqualTo("staging_qf-");
    assertThat(staging.pods().name()).isEqualTo("staging_qf-pods.v1");
    assertThat(staging.all())
        .allSatisfy(topic -> assertThat(topic.name()).startsWith("staging_qf-"));
    assertThat(TopicCatalogue.withPrefix("").runtime().name()).isEqualTo("runtime.v1");
  }

  @Test
  void aPrefixWithCharactersKafkaForbidsIsRefused() {
    assertThatThrownBy(() -> TopicCatalogue.withPrefix("quota flow/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'quota flow/'");
    assertThatThrownBy(() -> TopicCatalogue.withPrefix("x".repeat(240)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too long");
  }

  @Test
  void stateTopicsAreCompactedAndEventTopicsExpire() {
    assertThat(
            List.of(
                catalogue.pods(),
                catalogue.quotas(),
                catalogue.nodes(),
                catalogue.deviceClasses(),
                catalogue.resourceClaims(),
                catalogue.resourceClaimTemplates(),
                catalogue.resourceSlices(),
                catalogue.runtime(),
                catalogue.podClasses()))
        .allSatisfy(
            topic -> {
              assertThat(topic.cleanupPolicy()).isEqualTo(CleanupPolicy.COMPACT);
              assertThat(topic.config(TopicConfig.CLEANUP_POLICY_CONFIG)).contains("compact");
              assertThat(topic.config(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG)).isPresent();
              assertThat(topic.config(TopicConfig.DELETE_RETENTION_MS_CONFIG))
                  .contains(Long.toString(Duration.ofDays(7).toMillis()));
              assertThat(topic.config(TopicConfig.RETENTION_MS_CONFIG)).isEmpty();
            });
    assertThat(List.of(catalogue.evictions(), catalogue.evictionResults(), catalogue.rejected()))
        .allSatisfy(
            topic -> {
              assertThat(topic.cleanupPolicy()).isEqualTo(CleanupPolicy.DELETE);
              assertThat(topic.config(TopicConfig.CLEANUP_POLICY_CONFIG)).contains("delete");
              assertThat(topic.config(TopicConfig.RETENTION_MS_CONFIG)).isPresent();
            });
    assertThat(catalogue.evictions().config(TopicConfig.RETENTION_MS_CONFIG))
        .contains(Long.toString(Duration.ofDays(7).toMillis()));
  }

  @Test
  void serdesAreConfiguredForKeysAndValues() {
    assertThat(catalogue.pods().keySerde())
        .isInstanceOfSatisfying(
            AvroSerde.class,
            serde -> {
              assertThat(serde.type()).isEqualTo(PodKey.class);
              assertThat(serde.role()).isEqualTo(RecordRole.KEY);
            });
    assertThat(catalogue.runtime().keySerde())
        .isInstanceOfSatisfying(
            AvroSerde.class, serde -> assertThat(serde.type()).isEqualTo(QuotaKey.class));
    assertThat(catalogue.all().subList(0, 11))
        .allSatisfy(
            topic ->
                assertThat(topic.valueSerde())
                    .isInstanceOfSatisfying(
                        AvroSerde.class,
                        serde -> assertThat(serde.role()).isEqualTo(RecordRole.VALUE)));
  }

  @Test
  void draTopicsAreKeyedByClusterNamespaceAndName() {
    assertThat(catalogue.draInputs())
        .containsExactly(
            catalogue.deviceClasses(),
            catalogue.resourceClaims(),
            catalogue.resourceClaimTemplates(),
            catalogue.resourceSlices())
        .allSatisfy(
            topic ->
                assertThat(topic.keySerde())
                    .isInstanceOfSatisfying(
                        AvroSerde.class,
                        serde -> assertThat(serde.type()).isEqualTo(DraKey.class)));
  }

  @Test
  void topicsAreFoundByName() {
    assertThat(catalogue.byName("quotaflow.evictions.v1")).contains(catalogue.evictions());
    assertThat(catalogue.byName("quotaflow.unknown.v1")).isEmpty();
  }

  @Test
  void aNewTopicRequestCarriesTheRecommendedConfigs() {
    assertThat(catalogue.rejected().newTopic(3, (short) 1))
        .satisfies(
            request -> {
              assertThat(request.name()).isEqualTo("quotaflow.rejected.v1");
              assertThat(request.numPartitions()).isEqualTo(3);
              assertThat(request.replicationFactor()).isEqualTo((short) 1);
              assertThat(request.configs()).isEqualTo(catalogue.rejected().configs());
            });
  }

  @Test
  void configsContradictingThePolicyAreRefused() {
    assertThatThrownBy(
            () ->
                new Topic<>(
                    "t",
                    catalogue.pods().keySerde(),
                    catalogue.pods().valueSerde(),
                    CleanupPolicy.COMPACT,
                    java.util.Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "delete")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cleanup.policy=delete");
  }
}

package io.quotaflow.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {

  @Test
  void aSelectorIsItsName() {
    assertThat(PromQlNames.of("quotaflow_engine_running"))
        .containsExactly("quotaflow_engine_running");
  }

  @Test
  void labelsRangesFunctionsAndAggregationsAreNotNames() {
    assertThat(
            PromQlNames.of(
                "histogram_quantile(0.99, sum by (namespace, endpoint, le)"
                    + " (rate(requests_seconds_bucket{endpoint=~\"admission-pods|x\"}[5m]))) > 0.5"))
        .containsExactly("requests_seconds_bucket");
  }

  @Test
  void bothSidesOfABinaryOperationAreNamesButItsMatchingLabelsAreNot() {
    assertThat(
            PromQlNames.of(
                "used{field=\"used\"} - ignoring(field) runtime{field=\"runtime\"} > 0 and on(name)"
                    + " group_left(parent) spec unless absent(other)"))
        .containsExactly("other", "runtime", "spec", "used");
  }

  @Test
  void grafanaVariablesAndLabelValuesQueriesNameTheirMetricOnly() {
    assertThat(PromQlNames.of("label_values(quotaflow_status{cluster=~\"$cluster\"}, name)"))
        .containsExactly("quotaflow_status");
    assertThat(PromQlNames.of("sum(rate(x_total[$__rate_interval])) / ${divisor}"))
        .containsExactly("x_total");
  }

  @Test
  void numbersAndDurationsAreNotNames() {
    assertThat(PromQlNames.of("increase(a_total[15m]) > 1e3 offset 1h")).containsExactly("a_total");
  }
}

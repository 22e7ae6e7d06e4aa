package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.history.ResourceHours;
import io.quotaflow.simulate.SimulateCommand;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The web view in a real browser (Debian's headless Chromium, driven by Selenium through Debian's
 * chromedriver) against {@code quotaflow local} running in this JVM: every group of the example
 * organisation shows the runtime the query API states; a what-if edit shows the runtimes {@code
 * simulate} computes for the edited manifests; a group's detail lists its in-flight holds (the
 * detail's {@code holds}); a group's "why?" panel shows the explain endpoint's text for the runtime
 * its bar shows, and says when it cannot; the gpu-borrowing scenario's eviction appears without a
 * reload; a group's usage over time is charted with the history endpoint's numbers, the
 * gpu-borrowing scenario's borrowing and eviction in it, and an engine without history is said; the
 * gang-reclaim scenario's gang shows in its group's detail; and the tree of a 10,000-group cluster
 * is painted, timed by the page's own performance mark. Screenshots go to {@code target/web-view/}.
 * Skipped, saying which packages to install, where Chromium or chromedriver is missing.
 */
@Tag("slow")
class WebViewBrowserIT {

  private static final Logger LOG = LoggerFactory.getLogger(WebViewBrowserIT.class);
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path LOCAL = LocalFiles.localDir();
  private static final Path SHOTS =
      Path.of(System.getProperty("basedir", "."), "target", "web-view");
  private static final Duration SHOWN = Duration.ofSeconds(20);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path temp;
  private static ChromeDriver browser;

  @BeforeAll
  static void startBrowser() throws IOException {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "the browser test needs Debian's packages chromium and chromium-driver"
            + " (apt-get install -y chromium chromium-driver); "
            + CHROMIUM
            + " or "
            + CHROMEDRIVER
            + " is missing, so it is skipped");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    final ChromeOptions options = new ChromeOptions();
    // Both paths given: Selenium Manager has nothing to look up or download.
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,1000",
        "--user-data-dir=" + Files.createDirectories(temp.resolve("chromium-profile")));
    final ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    browser = new ChromeDriver(service, options);
    Files.createDirectories(SHOTS);
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void everyGroupShowsTheRuntimeTheQueryApiStatesAndAWhatIfShowsWhatSimulateComputes()
      throws Exception {
    final StringWriter printed = new StringWriter();
    final LocalRun run =
        LocalRun.start(LocalSettings.demo(LOCAL.resolve("examples"), 0), new PrintWriter(printed));
    try {
      final String url = run.adminUrl().orElseThrow();
      assertThat(printed.toString())
          .as("local prints the view's address first, before the tables")
          .startsWith("Web view of the quota tree: " + url + "/");
      browser.get(url + "/");
      shown(() -> group("research") != null && group("product") != null);
      expand("research");
      expand("product");

      final JsonNode tree = get(url + "/api/v1/clusters/demo/quotas");
      assertThat(tree.path("quotas").size()).isGreaterThan(8);
      shownWithin()
          .untilAsserted(
              () -> {
                for (final JsonNode quota : tree.path("quotas")) {
                  final String name = quota.path("name").asText();
                  quota
                      .path("runtime")
                      .fields()
                      .forEachRemaining(
                          runtime ->
                              assertThat(shownRuntime(name, runtime.getKey()))
                                  .as("runtime of %s in %s", runtime.getKey(), name)
                                  .isEqualTo(runtime.getValue().asText()));
                }
              });
      shoot("tree");

      // What if research-vision could hold at most 4 GPUs (it holds a runtime of 5)?
      browser.findElement(By.id("wi-group")).sendKeys("research-vision");
      browser.findElement(By.cssSelector("#wi-field option[value='max']")).click();
      browser.findElement(By.id("wi-resource")).clear();
      browser.findElement(By.id("wi-resource")).sendKeys("nvidia.com/gpu");
      browser.findElement(By.id("wi-amount")).sendKeys("4");
      browser.findElement(By.id("wi-add")).click();
      browser.findElement(By.id("wi-run")).click();
      shownWithin().until(() -> !browser.findElements(By.id("wi-table")).isEmpty());

      final Map<String, Long> shown = new TreeMap<>();
      for (final WebElement row :
          browser.findElements(By.cssSelector("#wi-table tr[data-group]"))) {
        shown.put(
            row.getDomAttribute("data-group") + " " + row.getDomAttribute("data-resource"),
            Long.parseLong(row.getDomAttribute("data-after")));
      }
      final Path edited = Files.createDirectories(temp.resolve("edited"));
      for (final String file : List.of("nodes.yaml", "pods.yaml", "quotas.yaml")) {
        String text = Files.readString(LOCAL.resolve("examples").resolve(file));
        if (file.equals("quotas.yaml")) {
          final String before = "max: {cpu: \"48\", memory: 192Gi, nvidia.com/gpu: \"8\"}";
          assertThat(text).contains(before);
          text = text.replace(before, "max: {cpu: \"48\", memory: 192Gi, nvidia.com/gpu: \"4\"}");
        }
        Files.writeString(edited.resolve(file), text);
      }
      final Map<String, Long> expected =
          changedRuntimes(simulate(LOCAL.resolve("examples")), simulate(edited));
      assertThat(expected).as("the edit changes runtimes").isNotEmpty();
      assertThat(shown).isEqualTo(expected);
      shoot("what-if");

      // A group's detail (selecting it also names it in the what-if form, so it comes last): its
      // pods, then the admissions held in flight at it (the detail's field "holds").
      select("research");
      shown(() -> detail().contains("In-flight holds ("));
      assertThat(detail()).contains("Group research").doesNotContain("cannot read group");
      shoot("detail");
    } finally {
      run.close();
    }
  }

  @Test
  void theScenariosEvictionAppearsInThePageWithoutAReload() throws Exception {
    final Scenario scenario =
        new ScenarioCatalogue(LOCAL.resolve("scenarios")).named("gpu-borrowing");
    final PrintWriter out = new PrintWriter(new StringWriter());
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withScenario(scenario), out);
    try {
      browser.get(run.adminUrl().orElseThrow() + "/");
      shownWithin().until(() -> group("team-a") != null);
      browser.executeScript("window.quotaflowTestMarker = 'same page';");

      new ScenarioPlayer(run, out, (number, step, outcome) -> {}).play(scenario);

      shownWithin()
          .until(
              () ->
                  !browser
                      .findElements(
                          By.cssSelector(
                              "#evictions li[data-pod='team-a/a-3'][data-outcome='EVICTED']"))
                      .isEmpty());
      assertThat(browser.executeScript("return window.quotaflowTestMarker;"))
          .as("the page was not reloaded")
          .isEqualTo("same page");
      assertThat(browser.findElement(By.id("evictions")).getText()).contains("team-a/a-3");
      shownWithin()
          .until(() -> browser.findElement(By.id("denials")).getText().contains("team-a/a-4"));
      shoot("eviction");
    } finally {
      run.close();
    }
  }

  /**
   * Issue 30: in the gpu-borrowing scenario, team-a's usage over time is read when its detail is
   * opened and when a period is chosen, not on the live updates between; after the scenario, its
   * GPU chart over the last 10 minutes (local keeps the history in steps of 5 s) shows the borrowed
   * GPUs as an area on the min line and the eviction of a-3 as a mark, every step carrying the
   * history endpoint's exact integrals and the level drawn from them; the summary states the
   * borrowed GPU-hours as quotaflow report rounds them. The longer periods ask for steps the kept
   * step divides; an unreachable server is said.
   */
  @Test
  void teamAsChartShowsItsBorrowingAndItsEvictionWithTheHistorysNumbers() throws Exception {
    final Scenario scenario =
        new ScenarioCatalogue(LOCAL.resolve("scenarios")).named("gpu-borrowing");
    final PrintWriter out = new PrintWriter(new StringWriter());
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withScenario(scenario), out);
    try {
      final String url = run.adminUrl().orElseThrow();
      final String gpu = "nvidia.com/gpu";
      browser.get(url + "/");
      browser.executeScript("performance.setResourceTimingBufferSize(100000);");
      shownWithin().until(() -> group("team-a") != null);
      select("team-a");
      shown(() -> "drawn".equals(history().getDomAttribute("data-state")));
      assertThat(chart().getDomAttribute("data-step"))
          .as("the last hour in minutes, a multiple of local's kept step of 5 s")
          .isEqualTo("PT1M");
      // The first read learns the kept step; opening the detail reads no more than that.
      final long opened = reads("/history?");
      assertThat(opened).isBetween(1L, 2L);

      new ScenarioPlayer(run, out, (number, step, outcome) -> {}).play(scenario);
      final String api = url + "/api/v1/clusters/demo/quotas/team-a/history";
      shownWithin().until(() -> evictions(get(api)) > 0);
      shownWithin().until(() -> reads("/view/groups/team-a") > 1);
      assertThat(reads("/history?"))
          .as("the detail follows the live updates, the chart is not read again")
          .isEqualTo(opened);

      choosePeriod("minutes");
      shown(() -> "PT5S".equals(chart().getDomAttribute("data-step")));
      assertThat(reads("/history?")).as("one period chosen, one read").isEqualTo(opened + 1);
      final WebElement chart = chart();
      assertThat(chart.getDomAttribute("data-resource"))
          .as("the chart opens on the resource team-a borrowed")
          .isEqualTo(gpu);
      final JsonNode answer =
          get(
              api
                  + "?from="
                  + chart.getDomAttribute("data-from")
                  + "&to="
                  + chart.getDomAttribute("data-to")
                  + "&step="
                  + chart.getDomAttribute("data-step"));
      assertStepsAreTheHistorys(answer, gpu);

      final BigInteger borrowed = total(answer, gpu, "borrowed");
      assertThat(borrowed).as("team-a borrowed GPUs").isPositive();
      final List<WebElement> areas = chart.findElements(By.cssSelector("rect.borrowed"));
      assertThat(areas).as("the borrowed GPUs are shaded").isNotEmpty();
      for (final WebElement area : areas) {
        assertThat(Double.parseDouble(area.getDomAttribute("data-value"))).isPositive();
        assertThat(
                Double.parseDouble(area.getDomAttribute("y"))
                    + Double.parseDouble(area.getDomAttribute("height")))
            .as("a borrowed area stands on the min line")
            .isCloseTo(
                minLineAt(chart, Double.parseDouble(area.getDomAttribute("x"))), within(0.001));
      }
      final List<WebElement> marks = chart.findElements(By.cssSelector("g.eviction"));
      assertThat(marks).as("a-3's eviction is marked").isNotEmpty();
      final Map<Instant, Integer> marked = new TreeMap<>();
      for (final WebElement mark : marks) {
        marked.put(
            Instant.parse(mark.getDomAttribute("data-start")),
            Integer.parseInt(mark.getDomAttribute("data-count")));
      }
      assertThat(marked).isEqualTo(evictionsByStep(answer));
      final int evicted = evictions(answer);
      final int denied = denials(answer);
      assertThat(browser.findElement(By.cssSelector("#history .history-summary")).getText())
          .as("the text alternative states the period's totals")
          .contains("borrowed " + ResourceHours.of(gpu, borrowed).toPlainString() + " GPU-hours")
          .contains(evicted + (evicted == 1 ? " eviction (" : " evictions ("))
          .contains(
              denied == 0
                  ? "no pod denied"
                  : denied + (denied == 1 ? " pod denied (" : " pods denied ("));
      assertThat(chart.findElement(By.tagName("title")).getDomProperty("textContent"))
          .isEqualTo("Usage of nvidia.com/gpu by team-a, last 10 minutes");
      browser.executeScript("arguments[0].scrollIntoView();", history());
      shoot("history");

      // Longer periods: steps the kept step divides, all of it summed on the server.
      choosePeriod("day");
      shown(() -> "PT15M".equals(chart().getDomAttribute("data-step")));
      assertThat(chart().findElements(By.cssSelector("g.eviction"))).isNotEmpty();
      browser.executeCdpCommand("Network.enable", Map.of());
      browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*/history?*")));
      try {
        choosePeriod("weeks");
        shown(() -> "error".equals(history().getDomAttribute("data-state")));
        assertThat(history().getText()).contains("could not be reached");
      } finally {
        browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
        browser.executeCdpCommand("Network.disable", Map.of());
      }
      choosePeriod("weeks");
      shown(() -> "PT3H".equals(chart().getDomAttribute("data-step")));
      assertThat(browser.findElements(By.cssSelector("#detail-body")).get(0).getText())
          .as("the rest of the detail stands")
          .contains("Pods (");
    } finally {
      run.close();
    }
  }

  /** An engine that keeps no history answers 404: the panel says so and the detail stands. */
  @Test
  void aGroupsChartSaysWhenTheEngineKeepsNoHistory() throws Exception {
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0)
                .withSetting("history.enabled", "false"),
            new PrintWriter(new StringWriter()));
    try {
      browser.get(run.adminUrl().orElseThrow() + "/");
      shown(() -> group("research") != null);
      select("research");
      shown(() -> "not-kept".equals(history().getDomAttribute("data-state")));
      assertThat(history().getText())
          .contains("No history to show")
          .contains("history.enabled is false");
      assertThat(browser.findElements(By.cssSelector("#history svg"))).isEmpty();
      shown(() -> detail().contains("Pods ("));
      browser.executeScript("arguments[0].scrollIntoView();", history());
      shoot("history-not-kept");
    } finally {
      run.close();
    }
  }

  /**
   * A group with nothing recorded says so instead of drawing an empty chart; while the cluster's
   * stores cannot be read (a rebalance), the history's 503 is said and the detail stands; once they
   * can, choosing a period reads the history again.
   */
  @Test
  void aGroupsChartSaysWhenNothingIsRecordedAndWhenTheHistoryCannotBeReadNow() throws Exception {
    final SnapshotClusterState state =
        new SnapshotClusterState()
            .put(
                "east",
                Fixtures.cluster()
                    .total(Fixtures.cpu(8_000))
                    .group(
                        Fixtures.quota("team-a").min(Fixtures.cpu(2_000)).max(Fixtures.cpu(8_000)))
                    .inputs(),
                QuotaOptions.DEFAULTS)
            .history("east", new KeptWindows(Duration.ofMinutes(1)));
    try (AdmissionServer server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start()) {
      server.refreshLastState();
      browser.get("http://127.0.0.1:" + server.port() + "/ui/");
      shown(() -> group("team-a") != null);
      select("team-a");
      shown(() -> "empty".equals(history().getDomAttribute("data-state")));
      assertThat(history().getText())
          .contains("Nothing is recorded of team-a in the last hour")
          .contains("no eviction");
      assertThat(browser.findElements(By.cssSelector("#history svg"))).isEmpty();

      state.unavailable("east", "rebalancing");
      choosePeriod("day");
      shown(() -> "unavailable".equals(history().getDomAttribute("data-state")));
      assertThat(history().getText())
          .contains("not readable at the moment")
          .contains("(HTTP 503: the state of cluster east cannot be read now");
      assertThat(detail()).contains("Group team-a");
      browser.executeScript("arguments[0].scrollIntoView();", history());
      shoot("history-unavailable");

      state.available("east");
      choosePeriod("day");
      shown(() -> "empty".equals(history().getDomAttribute("data-state")));
      assertThat(history().getText()).contains("Nothing is recorded of team-a in the last day");
    }
  }

  /**
   * The chart draws the answer's steps from the first that holds anything to the last, each with
   * the answer's integrals and the level drawn from them (the integral over the step's length). The
   * last step ends at the present, so it is longer in the test's later answer: there only what no
   * longer grows is compared (borrowed and lent, zero since the reclaim).
   */
  private static void assertStepsAreTheHistorys(JsonNode answer, String resource) {
    final List<WebElement> columns = chart().findElements(By.cssSelector("rect.step"));
    final JsonNode steps = answer.path("steps");
    final Instant shownFrom = Instant.parse(columns.get(0).getDomAttribute("data-start"));
    int offset = 0;
    while (!Instant.parse(steps.path(offset).path("start").asText()).equals(shownFrom)) {
      assertThat(steps.path(offset).path("evictions").size()).isZero();
      for (final JsonNode metrics : answer.path("resources")) {
        for (final JsonNode values : metrics) {
          assertThat(values.path("integral").path(offset).asText())
              .as("a step left out of the chart holds nothing")
              .isEqualTo("0");
        }
      }
      offset++;
    }
    assertThat(columns).hasSize(steps.size() - offset);
    int whole = 0;
    for (int c = 0; c < columns.size(); c++) {
      final int i = offset + c;
      final WebElement column = columns.get(c);
      final JsonNode step = steps.path(i);
      final Instant start = Instant.parse(column.getDomAttribute("data-start"));
      final Instant end = Instant.parse(column.getDomAttribute("data-end"));
      assertThat(start).isEqualTo(Instant.parse(step.path("start").asText()));
      final boolean same = end.equals(Instant.parse(step.path("end").asText()));
      whole += same ? 1 : 0;
      for (final String metric : List.of("used", "runtime", "min", "borrowed", "lent")) {
        final String integral = column.getDomAttribute("data-" + metric + "-integral");
        if (same || metric.equals("borrowed") || metric.equals("lent")) {
          assertThat(integral)
              .as("%s integral of the step at %s", metric, start)
              .isEqualTo(
                  answer
                      .path("resources")
                      .path(resource)
                      .path(metric)
                      .path("integral")
                      .path(i)
                      .asText());
        }
        final double drawn = Double.parseDouble(column.getDomAttribute("data-" + metric));
        final BigDecimal level =
            new BigDecimal(integral)
                .divide(
                    BigDecimal.valueOf(Duration.between(start, end).toMillis()),
                    MathContext.DECIMAL64);
        assertThat(drawn)
            .as("%s level drawn at %s", metric, start)
            .isCloseTo(level.doubleValue(), within(1e-9 * Math.max(1, level.doubleValue())));
      }
    }
    assertThat(whole).as("steps compared in full").isGreaterThan(columns.size() / 2);
  }

  private static BigInteger total(JsonNode answer, String resource, String metric) {
    BigInteger sum = BigInteger.ZERO;
    for (final JsonNode integral :
        answer.path("resources").path(resource).path(metric).path("integral")) {
      sum = sum.add(new BigInteger(integral.asText()));
    }
    return sum;
  }

  private static Map<Instant, Integer> evictionsByStep(JsonNode answer) {
    final Map<Instant, Integer> counts = new TreeMap<>();
    for (final JsonNode step : answer.path("steps")) {
      int count = 0;
      for (final JsonNode n : step.path("evictions")) {
        count += n.asInt();
      }
      if (count > 0) {
        counts.put(Instant.parse(step.path("start").asText()), count);
      }
    }
    return counts;
  }

  private static int denials(JsonNode answer) {
    int count = 0;
    for (final JsonNode step : answer.get("steps")) {
      for (final JsonNode n : step.get("denials")) {
        count += n.asInt();
      }
    }
    return count;
  }

  private static int evictions(JsonNode answer) {
    return evictionsByStep(answer).values().stream().mapToInt(Integer::intValue).sum();
  }

  /**
   * The y of the chart's min line over the step that starts at {@code x}. The line is drawn through
   * each step's start and end: at {@code x} the step before ends, then this step starts.
   */
  private static double minLineAt(WebElement chart, double x) {
    Double y = null;
    for (final String point :
        chart
            .findElement(By.cssSelector("polyline[data-metric='min']"))
            .getDomAttribute("points")
            .split(" ")) {
      final String[] xy = point.split(",");
      if (Math.abs(Double.parseDouble(xy[0]) - x) < 0.001) {
        y = Double.parseDouble(xy[1]);
      }
    }
    assertThat(y).as("the min line's point at x %s", x).isNotNull();
    return y;
  }

  private static WebElement history() {
    return browser.findElement(By.id("history"));
  }

  private static WebElement chart() {
    return browser.findElement(By.cssSelector("#history svg.history-chart"));
  }

  /** Presses a period's button: {@code hour}, {@code day} or {@code weeks}. */
  private static void choosePeriod(String range) {
    browser.findElement(By.cssSelector("#history button[data-range='" + range + "']")).click();
  }

  /** How many requests the page has made whose address contains {@code part}. */
  private static long reads(String part) {
    return (Long)
        browser.executeScript(
            "return performance.getEntriesByType('resource')"
                + ".filter((e) => e.name.includes(arguments[0])).length;",
            part);
  }

  /**
   * Issue 28: in the gang-reclaim scenario, team-a's detail shows its training gang, 8 of minMember
   * 8 running, as the query API states it; once the scenario has evicted it whole, the detail shows
   * no gang.
   */
  @Test
  void theGangReclaimScenariosGangIsShownInItsGroupsDetailUntilItIsEvictedWhole() throws Exception {
    final Scenario scenario =
        new ScenarioCatalogue(LOCAL.resolve("scenarios")).named("gang-reclaim");
    final PrintWriter out = new PrintWriter(new StringWriter());
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withScenario(scenario), out);
    try {
      final String url = run.adminUrl().orElseThrow();
      browser.get(url + "/");
      shownWithin().until(() -> group("team-a") != null);
      final JsonNode train =
          get(url + "/api/v1/clusters/demo/quotas/team-a").path("quota").path("gangs").path(0);
      assertThat(train.path("name").asText()).isEqualTo("train");
      assertThat(train.path("state").asText()).isEqualTo("running");

      select("team-a");
      shown(() -> !browser.findElements(By.cssSelector("#gangs tr[data-gang]")).isEmpty());
      final WebElement row = browser.findElement(By.cssSelector("#gangs tr[data-gang]"));
      assertThat(row.getDomAttribute("data-gang")).isEqualTo("team-a/train");
      assertThat(row.getDomAttribute("data-state")).isEqualTo(train.path("state").asText());
      assertThat(row.getText())
          .contains("team-a/train (koordinator)")
          .contains(train.path("members").asInt() + " / " + train.path("minMember").asInt())
          .contains("8 / 8")
          .contains("running");
      assertThat(detail()).contains("Gangs (1)");
      shoot("gang");

      new ScenarioPlayer(run, out, (number, step, outcome) -> {}).play(scenario);

      shownWithin()
          .ignoreExceptions()
          .until(
              () -> {
                select("team-a");
                return detail().contains("Pods (") && !detail().contains("Gangs (");
              });
      assertThat(browser.findElements(By.id("gangs"))).as("the gang was evicted whole").isEmpty();
    } finally {
      run.close();
    }
  }

  @Test
  void theTreeOfTenThousandGroupsIsPaintedAndTimed() throws Exception {
    final Fixtures.ClusterBuilder cluster = Fixtures.cluster().total(Fixtures.cpu(100_000_000));
    for (int d = 0; d < 100; d++) {
      final String department = String.format("dept-%03d", d);
      cluster.group(
          Fixtures.parentQuota(department).min(Fixtures.cpu(10_000)).max(Fixtures.cpu(1_000_000)));
      for (int t = 0; t < 99; t++) {
        cluster.group(
            Fixtures.quota(String.format("%s-team-%02d", department, t))
                .parent(department)
                .min(Fixtures.cpu(100))
                .max(Fixtures.cpu(10_000)));
      }
    }
    final SnapshotClusterState state =
        new SnapshotClusterState().put("big", cluster.inputs(), QuotaOptions.DEFAULTS);
    try (AdmissionServer server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start()) {
      server.refreshLastState();
      final String url = "http://127.0.0.1:" + server.port() + "/ui/";
      final long started = System.nanoTime();
      browser.get(url);
      shownWithin()
          .until(
              () ->
                  browser
                      .executeScript(
                          "return performance.getEntriesByName('quotaflow-tree-painted').length")
                      .equals(1L));
      final long wall = (System.nanoTime() - started) / 1_000_000;
      final double painted =
          ((Number)
                  browser.executeScript(
                      "return performance.getEntriesByName('quotaflow-tree-painted')[0].startTime"))
              .doubleValue();
      final long rows = browser.findElements(By.cssSelector("div.group")).size();
      LOG.info(
          "10,000 groups (100 x 99 under 100 parents): first paint of the tree {} ms after"
              + " navigation, {} rows in the page, {} ms until the test saw it",
          Math.round(painted),
          rows,
          wall);
      Files.writeString(
          SHOTS.resolve("first-paint-10k.txt"),
          "groups=10000 rows=" + rows + " firstPaintMs=" + Math.round(painted) + "\n");
      assertThat(rows).as("only the root and its children are rendered").isEqualTo(103);
      assertThat(painted).isPositive();
      shoot("ten-thousand");
    }
  }

  /**
   * Issue 25: with {@code --auth}, the page asks for a token; signed in as the tenant of namespace
   * vision, it shows research-vision and its ancestors only, no other team, and no what-if.
   */
  @Test
  void aTenantSignsInAndSeesOnlyItsGroups() throws Exception {
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withAuth(true),
            new PrintWriter(new StringWriter()));
    try {
      final String url = run.adminUrl().orElseThrow();
      browser.manage().deleteAllCookies();
      browser.get(url + "/");
      shown(() -> browser.findElement(By.id("sign-in")).isDisplayed());
      browser.findElement(By.id("token")).sendKeys(run.people().orElseThrow().tenantToken());
      browser.findElement(By.id("sign-in-button")).click();

      shown(() -> group("research") != null);
      expand("research");
      shown(() -> group("research-vision") != null);
      assertThat(browser.findElement(By.id("who")).getText()).contains("vision-tenant");
      assertThat(group("research-nlp")).as("another team's group").isNull();
      assertThat(group("product")).as("another department").isNull();
      assertThat(browser.findElement(By.id("what-if")).isDisplayed()).isFalse();
      // The chart reads the history with the tenant's session.
      select("research-vision");
      shown(() -> "drawn".equals(history().getDomAttribute("data-state")));
      assertThat(chart().getDomAttribute("data-group")).isEqualTo("research-vision");
      shoot("tenant");
    } finally {
      browser.manage().deleteAllCookies();
      run.close();
    }
  }

  /**
   * Issue 27: "why?" beside research-vision's GPU bar reads the runtime's explanation, only when
   * opened, and shows the server's text (the same runtime as the bar) under a headline built from
   * its JSON; Escape closes it, as does a second click; Enter opens it from the keyboard; an answer
   * that cannot be read is said in the panel.
   */
  @Test
  void whyExplainsTheRuntimeOfABarWhenOpenedAndSaysWhenItCannot() throws Exception {
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0), new PrintWriter(new StringWriter()));
    try {
      final String url = run.adminUrl().orElseThrow();
      browser.get(url + "/");
      shown(() -> group("research") != null);
      expand("research");
      shown(() -> group("research-vision") != null);
      final String gpu = "nvidia.com/gpu";
      final String runtime =
          get(url + "/api/v1/clusters/demo/quotas/research-vision")
              .path("quota")
              .path("runtime")
              .path(gpu)
              .asText();
      shownWithin().until(() -> runtime.equals(shownRuntime("research-vision", gpu)));
      assertThat(explainsRead()).as("nothing is explained before a why is opened").isZero();

      clickWhy("research-vision", gpu);
      shown(() -> "explained".equals(whyPanel().getDomAttribute("data-state")));
      assertThat(whyPanel().getDomAttribute("data-group")).isEqualTo("research-vision");
      assertThat(whyPanel().findElement(By.cssSelector("pre.why-text")).getText())
          .as("the server's text, with the runtime the bar shows")
          .startsWith("research-vision: runtime " + runtime + " " + gpu)
          .contains("Step 2: research distributes its runtime");
      assertThat(shownRuntimeText("research-vision", gpu)).isEqualTo(runtime);
      assertThat(whyPanel().findElement(By.cssSelector(".why-headline")).getText())
          .isEqualTo(
              "research-vision gets "
                  + runtime
                  + " of the 8 nvidia.com/gpu it asks: research distributes 6;"
                  + " research-nlp keeps 1.");
      assertThat(whyButton("research-vision", gpu).getDomAttribute("aria-expanded"))
          .isEqualTo("true");
      assertThat(explainsRead()).as("one click, one read").isEqualTo(1);
      shoot("why");

      browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
      shown(() -> browser.findElements(By.id("why-panel")).isEmpty());
      assertThat(whyButton("research-vision", gpu).getDomAttribute("aria-expanded"))
          .isEqualTo("false");
      assertThat(browser.switchTo().activeElement().getDomAttribute("data-resource"))
          .as("the focus returns to the why button")
          .isEqualTo(gpu);

      // From the keyboard, then closed by a second click.
      shownWithin()
          .ignoreExceptions()
          .until(
              () -> {
                // A row redrawn under the key press (a live update) is pressed again.
                whyButton("research-vision", gpu).sendKeys(Keys.ENTER);
                return true;
              });
      shown(() -> "explained".equals(whyPanel().getDomAttribute("data-state")));
      clickWhy("research-vision", gpu);
      shown(() -> browser.findElements(By.id("why-panel")).isEmpty());

      // Memory: the headline's amount is formatted in the page as the server's text formats it.
      clickWhy("research-vision", "memory");
      shown(() -> "explained".equals(whyPanel().getDomAttribute("data-state")));
      final String first =
          whyPanel()
              .findElement(By.cssSelector("pre.why-text"))
              .getText()
              .lines()
              .findFirst()
              .get();
      assertThat(first).matches("research-vision: runtime \\S+ memory");
      final String amount = first.split(" ")[2];
      assertThat(amount).endsWith("Gi");
      assertThat(whyPanel().findElement(By.cssSelector(".why-headline")).getText())
          .startsWith("research-vision gets " + amount + " ");

      // The network refuses the explanation: the panel says so, not blank.
      browser.executeCdpCommand("Network.enable", Map.of());
      browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*/explain?*")));
      try {
        clickWhy("research-vision", gpu);
        shown(() -> "error".equals(whyPanel().getDomAttribute("data-state")));
        assertThat(whyPanel().getText())
            .contains("cannot explain research-vision in nvidia.com/gpu")
            .contains("could not be reached");
        shoot("why-unreachable");
      } finally {
        browser.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
        browser.executeCdpCommand("Network.disable", Map.of());
      }
    } finally {
      run.close();
    }
  }

  /**
   * With {@code --auth}, the why panel reads the explanation with the page's session; once the
   * session is gone, the panel says the 401's reason.
   */
  @Test
  void aTenantsWhyPanelUsesItsSessionAndSaysWhenItIsGone() throws Exception {
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withAuth(true),
            new PrintWriter(new StringWriter()));
    try {
      browser.manage().deleteAllCookies();
      browser.get(run.adminUrl().orElseThrow() + "/");
      shown(() -> browser.findElement(By.id("sign-in")).isDisplayed());
      browser.findElement(By.id("token")).sendKeys(run.people().orElseThrow().tenantToken());
      browser.findElement(By.id("sign-in-button")).click();
      shown(() -> group("research") != null);
      expand("research");
      shown(() -> group("research-vision") != null);

      clickWhy("research-vision", "nvidia.com/gpu");
      shown(() -> "explained".equals(whyPanel().getDomAttribute("data-state")));
      assertThat(whyPanel().findElement(By.cssSelector("pre.why-text")).getText())
          .startsWith("research-vision: runtime ");
      clickWhy("research-vision", "nvidia.com/gpu");
      shown(() -> browser.findElements(By.id("why-panel")).isEmpty());

      browser.manage().deleteAllCookies();
      clickWhy("research-vision", "nvidia.com/gpu");
      shown(() -> "error".equals(whyPanel().getDomAttribute("data-state")));
      assertThat(whyPanel().getText())
          .contains("cannot explain research-vision in nvidia.com/gpu")
          .contains("sign in")
          .contains("(HTTP 401)");
    } finally {
      browser.manage().deleteAllCookies();
      run.close();
    }
  }

  /** The why button of {@code resource} beside group {@code name}'s bar. */
  private static WebElement whyButton(String name, String resource) {
    return group(name)
        .findElement(
            By.cssSelector(
                ":scope > div.dims > div.dim[data-resource='" + resource + "'] > button.why"));
  }

  /** Clicks a why button; a row redrawn under the click (a live update) is clicked again. */
  private static void clickWhy(String name, String resource) {
    shownWithin()
        .ignoreExceptions()
        .until(
            () -> {
              whyButton(name, resource).click();
              return true;
            });
  }

  private static WebElement whyPanel() {
    return browser.findElement(By.id("why-panel"));
  }

  /** How many explanations the page has read, by the browser's own record of its requests. */
  private static long explainsRead() {
    return (Long)
        browser.executeScript(
            "return performance.getEntriesByType('resource')"
                + ".filter((e) => e.name.includes('/explain?')).length;");
  }

  /** Waits until {@code condition}; else fails with a screenshot and what the page says. */
  private static void shown(java.util.concurrent.Callable<Boolean> condition) throws IOException {
    try {
      shownWithin().ignoreExceptions().until(condition);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      shoot("failure");
      throw new AssertionError(
          "the page did not show it; status: "
              + browser.findElement(By.id("status")).getText()
              + "; rows: "
              + browser.findElements(By.cssSelector("div.group")).size(),
          e);
    }
  }

  private static WebElement group(String name) {
    final List<WebElement> found =
        browser.findElements(By.cssSelector("div.group[data-name='" + name + "']"));
    return found.isEmpty() ? null : found.get(0);
  }

  /** Expands group {@code name}; a row redrawn under the click (a live update) is clicked again. */
  private static void expand(String name) {
    shownWithin()
        .ignoreExceptions()
        .until(
            () -> {
              toggle(name).click();
              return true;
            });
    shownWithin()
        .ignoreExceptions()
        .until(() -> "true".equals(toggle(name).getDomAttribute("aria-expanded")));
  }

  /** Selects group {@code name}, as a click on its name; a redrawn row is clicked again. */
  private static void select(String name) {
    shownWithin()
        .ignoreExceptions()
        .until(
            () -> {
              group(name).findElement(By.cssSelector(":scope > div.row > button.name")).click();
              return true;
            });
  }

  /** What the detail pane shows: its title and body. */
  private static String detail() {
    return browser.findElement(By.id("detail")).getText();
  }

  private static WebElement toggle(String name) {
    return group(name).findElement(By.cssSelector(":scope > div.row > button.toggle"));
  }

  /**
   * An await of what the page shows. The live stream re-renders rows, so an element found a moment
   * ago may be gone: such a read is tried again, as a person would look again.
   */
  private static ConditionFactory shownWithin() {
    return await().atMost(SHOWN).ignoreExceptionsInstanceOf(StaleElementReferenceException.class);
  }

  /** The runtime the page shows for {@code resource} of group {@code name}, canonical units. */
  private static String shownRuntime(String name, String resource) {
    final WebElement group = group(name);
    if (group == null) {
      return "(group not shown)";
    }
    final List<WebElement> lines =
        group.findElements(
            By.cssSelector(":scope > div.dims > div.dim[data-resource='" + resource + "']"));
    return lines.isEmpty() ? "(resource not shown)" : lines.get(0).getDomAttribute("data-runtime");
  }

  /** The runtime the page writes beside the bar of {@code resource} of group {@code name}. */
  private static String shownRuntimeText(String name, String resource) {
    return group(name)
        .findElement(
            By.cssSelector(
                ":scope > div.dims > div.dim[data-resource='" + resource + "'] .runtime-text"))
        .getText();
  }

  private static void shoot(String name) throws IOException {
    Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
  }

  private static JsonNode get(String url) throws Exception {
    final HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** Every group's runtime as {@code quotaflow simulate --output json} prints it. */
  private static Map<String, Map<String, Long>> simulate(Path manifests) throws IOException {
    final StringWriter out = new StringWriter();
    final CommandLine command = new CommandLine(new SimulateCommand());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(new StringWriter()));
    assertThat(command.execute("-f", manifests.toString(), "--output", "json")).isZero();
    final Map<String, Map<String, Long>> runtimes = new HashMap<>();
    for (final JsonNode quota : JSON.readTree(out.toString()).path("quotas")) {
      final Map<String, Long> runtime = new TreeMap<>();
      quota
          .path("runtime")
          .fields()
          .forEachRemaining(e -> runtime.put(e.getKey(), e.getValue().asLong()));
      runtimes.put(quota.path("name").asText(), runtime);
    }
    return runtimes;
  }

  /** "group resource" to the new runtime, for every runtime that differs. */
  private static Map<String, Long> changedRuntimes(
      Map<String, Map<String, Long>> before, Map<String, Map<String, Long>> after) {
    final Map<String, Long> changed = new TreeMap<>();
    after.forEach(
        (group, runtime) ->
            runtime.forEach(
                (resource, amount) -> {
                  if (!amount.equals(before.get(group).get(resource))) {
                    changed.put(group + " " + resource, amount);
                  }
                }));
    return changed;
  }
}

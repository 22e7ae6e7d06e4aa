package io.quotaflow.broker;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives tests a running {@link EmbeddedKafkaBroker}.
 *
 * <p>One broker serves the whole test run of a JVM: it starts when a test first asks for it and
 * stops when the run ends (it is kept in the root store, which JUnit closes last). Every test class
 * of a module therefore shares it, so tests must use their own topic names and consumer groups. The
 * broker is injected into constructors and into test, {@code @BeforeAll} and {@code @BeforeEach}
 * methods:
 *
 * <pre>{@code
 * @ExtendWith(EmbeddedKafkaExtension.class)
 * class PodsTopicIT {
 *   @Test
 *   void roundTrips(EmbeddedKafkaBroker broker) { ... broker.bootstrapServers() ... }
 * }
 * }</pre>
 *
 * <p>Needs JUnit Jupiter 5.13 or later, which closes {@link AutoCloseable} store values.
 */
public final class EmbeddedKafkaExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EmbeddedKafkaExtension.class);

  @Override
  public boolean supportsParameter(
      final ParameterContext parameterContext, final ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == EmbeddedKafkaBroker.class;
  }

  @Override
  public EmbeddedKafkaBroker resolveParameter(
      final ParameterContext parameterContext, final ExtensionContext extensionContext) {
    return broker(extensionContext);
  }

  /**
   * The run's broker, started on first use: for other extensions (test fixtures) that need the same
   * broker the injected parameters get.
   */
  public static EmbeddedKafkaBroker broker(final ExtensionContext extensionContext) {
    return extensionContext
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            EmbeddedKafkaBroker.class,
            key -> EmbeddedKafkaBroker.builder().build().start(),
            EmbeddedKafkaBroker.class);
  }
}

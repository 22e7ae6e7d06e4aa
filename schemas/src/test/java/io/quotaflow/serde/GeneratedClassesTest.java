package io.quotaflow.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.QuotaSpec;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import org.apache.avro.generic.GenericDatumReader;
import org.junit.jupiter.api.Test;

/**
 * A generated class's static reader keeps the thread that initialized the class: a Kafka Streams
 * thread that first built a nested record (a QuotaSpec's ReservationSpec) stayed reachable, with
 * its tasks, KafkaStreams and engine, after the engine closed (issue 41).
 */
class GeneratedClassesTest {

  @Test
  void aSerdeInitializesTheNestedRecordClassesOffTheThreadsThatUseThem() throws Exception {
    // Fresh copies of the generated and serde classes, so that nothing is initialized yet.
    try (URLClassLoader loader = new Isolated(QuotaSpec.class)) {
      final Class<?> quotaSpec = Class.forName(QuotaSpec.class.getName(), false, loader);
      final Class<?> role = Class.forName(RecordRole.class.getName(), true, loader);
      final Class<?> deserializer = Class.forName(AvroDeserializer.class.getName(), true, loader);
      deserializer
          .getConstructor(Class.class, role)
          .newInstance(quotaSpec, role.getEnumConstants()[1]);

      // A stream thread's processor builds the first reservation.
      final Thread streamThread =
          new Thread(
              () -> {
                try {
                  Class.forName("io.quotaflow.schemas.ReservationSpec", true, loader);
                } catch (ClassNotFoundException e) {
                  throw new IllegalStateException(e);
                }
              },
              "stream-thread-1");
      streamThread.start();
      streamThread.join();

      final Class<?> reservation =
          Class.forName("io.quotaflow.schemas.ReservationSpec", false, loader);
      final Field reader = reservation.getDeclaredField("READER$");
      reader.setAccessible(true);
      final Field creator = GenericDatumReader.class.getDeclaredField("creator");
      creator.setAccessible(true);
      assertThat(creator.get(reader.get(null))).isNotSameAs(streamThread);
    }
  }

  /** Loads the schemas module's own classes itself, everything else from the test's loader. */
  private static final class Isolated extends URLClassLoader {
    Isolated(final Class<?> ofModule) {
      super(
          new URL[] {ofModule.getProtectionDomain().getCodeSource().getLocation()},
          GeneratedClassesTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve)
        throws ClassNotFoundException {
      if (!name.startsWith("io.quotaflow.schemas.") && !name.startsWith("io.quotaflow.serde.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          loaded = findClass(name);
        }
        return loaded;
      }
    }
  }
}

package io.quotaflow.serde;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * Initializes a generated record class and the classes of the records nested in it on a short-lived
 * thread of its own. A generated class keeps a static {@code SpecificDatumReader}, and Avro's
 * reader keeps the thread that made it ({@code GenericDatumReader.creator}) for good: initialized
 * on a Kafka Streams thread (a processor building a nested record, say), the class held that
 * thread, its tasks, its KafkaStreams and engine long after the engine closed. A finished plain
 * thread holds nothing.
 */
final class GeneratedClasses {

  // Once per top-level type and class loader; a ClassValue does not keep the class loaded.
  private static final ClassValue<Boolean> INITIALIZED =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(final Class<?> type) {
          initializeOnOwnThread(type);
          return Boolean.TRUE;
        }
      };

  private GeneratedClasses() {}

  /** Makes sure {@code type} and every record class in its schema are initialized. */
  static void initialize(final Class<?> type) {
    INITIALIZED.get(type);
  }

  private static void initializeOnOwnThread(final Class<?> type) {
    final RuntimeException[] failure = new RuntimeException[1];
    final Thread thread =
        new Thread(
            () -> {
              try {
                initializeAll(type);
              } catch (RuntimeException | LinkageError e) {
                failure[0] = new IllegalStateException("Cannot initialize " + type.getName(), e);
              }
            },
            "avro-class-init");
    thread.setDaemon(true);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted initializing " + type.getName(), e);
    }
    if (failure[0] != null) {
      throw failure[0];
    }
  }

  private static void initializeAll(final Class<?> type) {
    load(type.getName(), type.getClassLoader());
    final SpecificData model = SpecificData.getForClass(type);
    final Deque<Schema> pending = new ArrayDeque<>();
    final Set<String> seen = new HashSet<>();
    pending.push(model.getSchema(type));
    while (!pending.isEmpty()) {
      final Schema schema = pending.pop();
      switch (schema.getType()) {
        case RECORD -> {
          if (seen.add(schema.getFullName())) {
            // By name from the type's own loader: the model's loader may be another one.
            loadIfGenerated(schema.getFullName(), type.getClassLoader());
            schema.getFields().forEach(field -> pending.push(field.schema()));
          }
        }
        case UNION -> schema.getTypes().forEach(pending::push);
        case ARRAY -> pending.push(schema.getElementType());
        case MAP -> pending.push(schema.getValueType());
        default -> {}
      }
    }
  }

  private static void loadIfGenerated(final String name, final ClassLoader loader) {
    try {
      Class.forName(name, true, loader);
    } catch (ClassNotFoundException notGenerated) {
      // A record read generically has no class to initialize.
    }
  }

  private static void load(final String name, final ClassLoader loader) {
    try {
      Class.forName(name, true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("Generated class " + name + " is not on the class path", e);
    }
  }
}

package io.quotaflow.kube;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the gang a pod names (issue 28) from the three conventions quotaflow understands. Pure;
 * never throws: what cannot be read becomes a {@link SpecProblem} of the pod and is ignored.
 *
 * <ul>
 *   <li>scheduler-plugins: the label {@value #POD_GROUP_LABEL}; minMember is the PodGroup's ({@code
 *       scheduling.x-k8s.io/v1alpha1}), unknown from the pod alone.
 *   <li>Koordinator: the annotations {@value #KOORDINATOR_NAME} and {@value
 *       #KOORDINATOR_MIN_AVAILABLE} (a positive integer).
 *   <li>Volcano: the annotation {@value #VOLCANO_GROUP_NAME}; minMember is the PodGroup's ({@code
 *       scheduling.volcano.sh/v1beta1}), unknown from the pod alone.
 * </ul>
 *
 * <p>A pod that names two different gangs through two conventions belongs to the one named by the
 * first convention in that order (koord-scheduler's own order: the PodGroup label before its
 * annotation; Volcano, another scheduler, last); each other name is a problem. The same name
 * through several conventions is one gang, of the first convention, with Koordinator's
 * min-available when it is given.
 */
public final class GangConventions {

  /** {@link Gang#convention()} of a gang named by {@value #POD_GROUP_LABEL}. */
  public static final String SCHEDULER_PLUGINS = "scheduler-plugins";

  /** {@link Gang#convention()} of a gang named by {@value #KOORDINATOR_NAME}. */
  public static final String KOORDINATOR = "koordinator";

  /** {@link Gang#convention()} of a gang named by {@value #VOLCANO_GROUP_NAME}. */
  public static final String VOLCANO = "volcano";

  /** Pod label of scheduler-plugins' coscheduling: the PodGroup's name. */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  /** Pod annotation of Koordinator's gang scheduling: the gang's name. */
  public static final String KOORDINATOR_NAME = "gang.scheduling.koordinator.sh/name";

  /** Pod annotation of Koordinator's gang scheduling: the gang's minMember, an integer. */
  public static final String KOORDINATOR_MIN_AVAILABLE =
      "gang.scheduling.koordinator.sh/min-available";

  /** Pod annotation of Volcano: the PodGroup's name. */
  public static final String VOLCANO_GROUP_NAME = "scheduling.k8s.io/group-name";

  private static final String LABELS = "metadata.labels";
  private static final String ANNOTATIONS = "metadata.annotations";

  private GangConventions() {}

  /** One convention's naming of the gang on a pod. */
  private record Naming(String convention, String field, String name) {}

  /**
   * The gang the pod's labels and annotations name, if any.
   *
   * @param problems receives a problem per conflicting name or unreadable min-available
   */
  public static Optional<Gang> read(
      Map<String, String> labels, Map<String, String> annotations, List<SpecProblem> problems) {
    // In order of precedence.
    final List<Naming> namings = new ArrayList<>(3);
    naming(SCHEDULER_PLUGINS, LABELS, POD_GROUP_LABEL, labels).ifPresent(namings::add);
    naming(KOORDINATOR, ANNOTATIONS, KOORDINATOR_NAME, annotations).ifPresent(namings::add);
    naming(VOLCANO, ANNOTATIONS, VOLCANO_GROUP_NAME, annotations).ifPresent(namings::add);

    final OptionalInt minAvailable = minAvailable(annotations, problems);
    final boolean koordinatorNamed =
        namings.stream().anyMatch(naming -> naming.convention().equals(KOORDINATOR));
    if (minAvailable.isPresent() && !koordinatorNamed) {
      problems.add(
          new SpecProblem(
              field(ANNOTATIONS, KOORDINATOR_MIN_AVAILABLE),
              "is ignored: the annotation " + KOORDINATOR_NAME + " names no gang"));
    }
    if (namings.isEmpty()) {
      return Optional.empty();
    }

    final Naming taken = namings.get(0);
    boolean koordinatorAgrees = false;
    for (final Naming naming : namings) {
      if (!naming.name().equals(taken.name())) {
        problems.add(
            new SpecProblem(
                naming.field(),
                "names gang \""
                    + naming.name()
                    + "\" but "
                    + taken.field()
                    + " names gang \""
                    + taken.name()
                    + "\", which is taken ("
                    + SCHEDULER_PLUGINS
                    + " before "
                    + KOORDINATOR
                    + " before "
                    + VOLCANO
                    + ")"));
      } else if (naming.convention().equals(KOORDINATOR)) {
        koordinatorAgrees = true;
      }
    }
    return Optional.of(
        new Gang(
            taken.name(),
            koordinatorAgrees ? minAvailable : OptionalInt.empty(),
            taken.convention()));
  }

  private static Optional<Naming> naming(
      String convention, String kind, String key, Map<String, String> values) {
    final String value = values.get(key);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new Naming(convention, field(kind, key), value.trim()));
  }

  /** Koordinator's min-available; empty (and a problem) when it is not a positive integer. */
  private static OptionalInt minAvailable(
      Map<String, String> annotations, List<SpecProblem> problems) {
    final String value = annotations.get(KOORDINATOR_MIN_AVAILABLE);
    if (value == null || value.isBlank()) {
      return OptionalInt.empty();
    }
    final String field = field(ANNOTATIONS, KOORDINATOR_MIN_AVAILABLE);
    final int minAvailable;
    try {
      minAvailable = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      problems.add(
          new SpecProblem(
              field, "\"" + value + "\" is not an integer; every member seen counts instead"));
      return OptionalInt.empty();
    }
    if (minAvailable < 1) {
      problems.add(
          new SpecProblem(
              field, minAvailable + " is not at least 1; every member seen counts instead"));
      return OptionalInt.empty();
    }
    return OptionalInt.of(minAvailable);
  }

  private static String field(String kind, String key) {
    return kind + "[" + key + "]";
  }
}

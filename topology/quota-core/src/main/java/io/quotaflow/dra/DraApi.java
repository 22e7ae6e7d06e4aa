package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.Map;
import java.util.Optional;

/**
 * The DRA kinds quotaflow reads and the one API version it reads them in: {@value #API_VERSION}
 * (Kubernetes 1.34 and later). The beta versions differ in shape (a request's fields sit directly
 * in it there, under {@code exactly} in v1), so they are not read (semantics.md section 22.6).
 */
public final class DraApi {

  public static final String GROUP = "resource.k8s.io";
  public static final String API_VERSION = GROUP + "/v1";

  private static final Map<String, Class<? extends HasMetadata>> KINDS =
      Map.of(
          "DeviceClass", DeviceClass.class,
          "ResourceClaim", ResourceClaim.class,
          "ResourceClaimTemplate", ResourceClaimTemplate.class,
          "ResourceSlice", ResourceSlice.class);

  private DraApi() {}

  /** Whether the object is one of the four DRA kinds, in any version of the group. */
  public static boolean isDraKind(String apiVersion, String kind) {
    return apiVersion.startsWith(GROUP + "/") && KINDS.containsKey(kind);
  }

  /** The model class of a DRA kind in {@value #API_VERSION}; empty for another version. */
  public static Optional<Class<? extends HasMetadata>> modelClass(String apiVersion, String kind) {
    return API_VERSION.equals(apiVersion) ? Optional.ofNullable(KINDS.get(kind)) : Optional.empty();
  }
}

#!/usr/bin/env bash
# Proves the image starts, not only that it exists: unpacks deploy/target/quotaflow-image.tar and
# runs its entry point from the image's own root file system, as the image's user, with the
# image's environment and working directory (chroot in private mount and PID namespaces, a fresh
# /proc, /tmp and a minimal /dev, as a container runtime gives them): `--version`, and `simulate`
# on the example organisation mounted read-only at /examples. Also checks what the manifests rely
# on: the reference they name, a non-root user, and the code in a small layer of its own.
#
#   deploy/image/test.sh        (after deploy/image/build.sh; needs root for chroot and mounts)
set -euo pipefail
# shellcheck source=deploy/image/common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

[ "$(id -u)" -eq 0 ] || die "run as root: the test mounts and chroots into the image"
ensure_tools umoci=umoci skopeo=skopeo jq=jq
[ -f "$archive" ] || die "no $archive: run deploy/image/build.sh first"

work=$(mktemp -d "$root/deploy/target/image-test.XXXXXX")
# --one-file-system: never follow a mount that outlived its namespace into the host.
trap 'rm -rf --one-file-system "$work"' EXIT

passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    log "ok: $name"
  else
    failed=$((failed + 1))
    log "FAILED: $name"
  fi
}

# skopeo fails here if the archive does not carry the reference build.sh gives it.
skopeo copy --quiet "oci-archive:$archive:$image_ref" "oci:$work/oci:test"
config=$(skopeo inspect --config "oci:$work/oci:test")
manifest=$(skopeo inspect --raw "oci:$work/oci:test")
umoci unpack --image "$work/oci:test" "$work/bundle" >/dev/null
rootfs=$work/bundle/rootfs

user=$(jq -r '.config.User' <<<"$config")
cwd=$(jq -r '.config.WorkingDir' <<<"$config")
mapfile -t entrypoint < <(jq -r '.config.Entrypoint[]' <<<"$config")
mapfile -t environment < <(jq -r '.config.Env[]' <<<"$config")

# Runs the image's entry point with the given arguments, as a container runtime would; stdout
# and stderr go to $work/out and $work/err.
run_image() {
  local rc=0
  mkdir -p "$rootfs/examples"
  unshare --mount --pid --fork --kill-child -- /bin/bash -c '
    set -e
    rootfs=$1 examples=$2 user=$3 cwd=$4 count=$5
    shift 5
    env=("${@:1:count}")
    shift "$count"
    mount -t proc proc "$rootfs/proc"
    mount -t tmpfs -o mode=1777 tmpfs "$rootfs/tmp"
    mount -t tmpfs -o mode=755 tmpfs "$rootfs/dev"
    for node in null zero full random urandom tty; do
      touch "$rootfs/dev/$node"
      mount --bind "/dev/$node" "$rootfs/dev/$node"
    done
    mount --bind "$examples" "$rootfs/examples"
    mount -o remount,bind,ro "$rootfs/examples"
    exec chroot --userspec="$user" "$rootfs" /usr/bin/env -i "${env[@]}" \
      /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
  ' run-image "$rootfs" "$root/deploy/local/examples" "$user" "$cwd" "${#environment[@]}" \
    "${environment[@]}" "${entrypoint[@]}" "$@" >"$work/out" 2>"$work/err" || rc=$?
  return "$rc"
}

kustomization=$root/deploy/kubernetes/base/kustomization.yaml
manifest_ref="$(sed -n 's/^ *newName: *//p' "$kustomization"):$(sed -n 's/^ *newTag: *//p' "$kustomization")"
check "the manifests run the image build.sh tags ($image_ref)" [ "$manifest_ref" = "$image_ref" ]

check "the image runs as the non-root user $image_uid" [ "$user" = "$image_uid:$image_uid" ]
check "the user is in the image's /etc/passwd" grep -q "^quotaflow:x:$image_uid:$image_uid:" "$rootfs/etc/passwd"
check "the entry point is the launcher" [ "${entrypoint[*]}" = /opt/quotaflow/bin/quotaflow ]

layers=$(jq '.layers | length' <<<"$manifest")
code_layer=$(jq '.layers[-1].size' <<<"$manifest")
check "three layers: base, dependencies, code ($layers)" [ "$layers" -eq 3 ]
check "the code layer is small ($code_layer bytes)" [ "$code_layer" -lt 5000000 ]

version_ok() {
  run_image --version || { cat "$work/err" >&2; return 1; }
  head -n 1 "$work/out" | grep -qx "quotaflow $image_version" && grep -q '^Java 17' "$work/out"
}
check "quotaflow --version in the image prints quotaflow $image_version on Java 17" version_ok
log "$(tr '\n' ' ' <"$work/out")"

simulate_ok() {
  run_image simulate -f /examples || { cat "$work/err" >&2; return 1; }
  grep -q koordinator-root-quota "$work/out" && grep -q research-vision "$work/out"
}
check "quotaflow simulate -f /examples in the image prints the example tree" simulate_ok

echo "image: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Builds quotaflow's OCI image without a container daemon or registry, into the OCI archive
# deploy/target/quotaflow-image.tar (reference quotaflow:<version>). docs/building.md explains it.
#
#   deploy/image/build.sh [--refresh-base]
#
# Layers, bottom up: Debian bookworm with Debian's Java 17 runtime and the user quotaflow (10001),
# then quotaflow's dependencies (dist/target/image/quotaflow-libs.jar), then quotaflow's own
# classes and the launcher (quotaflow-app.jar, bin/quotaflow). The first two are cached under
# QUOTAFLOW_IMAGE_CACHE (default ~/.cache/quotaflow/image), so after a code change only the last,
# small layer is built again. The base is rebuilt when older than 7 days, to pick up Debian's
# security updates, or with --refresh-base. Needs root (mmdebstrap installs packages in a chroot);
# installs mmdebstrap, umoci and skopeo from Debian's packages when they are missing.
set -euo pipefail
# shellcheck source=deploy/image/common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

refresh_base=false
case "${1:-}" in
  --refresh-base) refresh_base=true ;;
  "") ;;
  *) die "usage: deploy/image/build.sh [--refresh-base]" ;;
esac
[ "$(id -u)" -eq 0 ] || die "run as root: mmdebstrap installs Debian's packages in a chroot"

started=$SECONDS
cache=${QUOTAFLOW_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/quotaflow/image}
oci=$cache/oci
work=$root/deploy/target/image-build
base_max_age_days=7
# One fixed time for the files of the layers built here, so the same jar gives the same layer.
epoch=1735689600 # 2025-01-01T00:00:00Z

ensure_tools mmdebstrap=mmdebstrap umoci=umoci skopeo=skopeo

# --- The jars: dist's, rebuilt by Maven when a source or pom is newer. ---
app_jar=$root/dist/target/image/quotaflow-app.jar
libs_jar=$root/dist/target/image/quotaflow-libs.jar
jars_stale() {
  [ -f "$app_jar" ] && [ -f "$libs_jar" ] || return 0
  [ -n "$(find "$root"/pom.xml "$root"/*/pom.xml "$root"/*/src "$root"/topology/*/pom.xml \
    "$root"/topology/*/src -newer "$app_jar" \( -name pom.xml -o -type f \) -print 2>/dev/null |
    head -n 1)" ]
}
if jars_stale; then
  log "building dist's jars with Maven"
  mvn -B -q -Dstyle.color=never -f "$root/pom.xml" -DskipTests -Dquotaflow.local.jar.skip=true \
    -pl dist -am package >&2
fi
after_maven=$SECONDS

# --- The base: Debian bookworm, Java 17, the user; a root file system tar, cached. ---
suite=bookworm
packages=openjdk-17-jre-headless
# Documentation and translations are of no use in the image (the copyright files stay).
dpkg_opts=(
  'path-exclude=/usr/share/man/*'
  'path-exclude=/usr/share/doc/*'
  'path-include=/usr/share/doc/*/copyright'
  'path-exclude=/usr/share/locale/*'
  'path-exclude=/usr/share/info/*'
)
# The JRE's postinst links its man page into man1 even when man pages are excluded.
essential_hook='mkdir -p "$1/usr/share/man/man1"'
customize_hook="echo 'quotaflow:x:$image_uid:$image_uid:quotaflow:/var/lib/quotaflow:/usr/sbin/nologin' >> \"\$1/etc/passwd\"
echo 'quotaflow:x:$image_uid:' >> \"\$1/etc/group\"
mkdir -p \"\$1/var/lib/quotaflow\" && chown $image_uid:$image_uid \"\$1/var/lib/quotaflow\""
# The cache key: everything that decides what the base holds.
base_key=$(printf '%s\n' 1 "$suite" essential "$packages" "${dpkg_opts[@]}" "$essential_hook" \
  "$customize_hook" | sha256sum | cut -c1-12)
base_tar=$cache/base-$base_key.tar

mkdir -p "$cache" "$work"
if $refresh_base || [ ! -f "$base_tar" ] ||
  [ -n "$(find "$base_tar" -mtime +"$base_max_age_days" -print)" ]; then
  log "building the base with mmdebstrap ($suite, $packages): a minute or two"
  rootfs=$work/rootfs
  rm -rf "$rootfs"
  dpkg_args=()
  for opt in "${dpkg_opts[@]}"; do dpkg_args+=(--dpkgopt="$opt"); done
  # No mirror given: Debian's own, with bookworm-updates and bookworm-security added.
  mmdebstrap --quiet --mode=root --variant=essential --include="$packages" "${dpkg_args[@]}" \
    --essential-hook="$essential_hook" --customize-hook="$customize_hook" \
    "$suite" "$rootfs" >&2
  # Device nodes are the runtime's to create; the layer holds /dev empty.
  (cd "$rootfs" && tar --create --file "$base_tar.tmp" --sort=name --numeric-owner \
    --format=pax --pax-option=delete=atime,delete=ctime --exclude='dev/*' -- *)
  mv "$base_tar.tmp" "$base_tar"
  rm -rf "$rootfs"
  # Drop the layouts' tags of any older base.
  [ -d "$oci" ] && rm -rf "$oci"
fi
after_base=$SECONDS

# --- The OCI layout: base and dependency layers cached as tags, the code layer on top. ---
[ -f "$oci/index.json" ] || umoci init --layout "$oci"
# Not grep -q: its early exit would fail the pipe under pipefail.
has_tag() { umoci ls --layout "$oci" | grep -x -- "$1" >/dev/null; }

# A layer's tar: given files under root-owned directories, all with the same time.
layer_tar() {
  local dir=$1 out=$2
  (cd "$dir" && tar --create --file "$out" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" --format=pax --pax-option=delete=atime,delete=ctime -- *)
}

base_tag=base-$base_key
if ! has_tag "$base_tag"; then
  log "adding the base layer"
  umoci new --image "$oci:$base_tag"
  umoci raw add-layer --image "$oci:$base_tag" \
    --history.created_by="mmdebstrap --variant=essential --include=$packages $suite" "$base_tar"
fi

libs_key=$(sha256sum "$libs_jar" | cut -c1-12)
deps_tag=deps-$base_key-$libs_key
if ! has_tag "$deps_tag"; then
  log "adding the dependency layer (quotaflow-libs.jar)"
  rm -rf "$work/deps" && mkdir -p "$work/deps/opt/quotaflow/lib"
  install -m 0644 "$libs_jar" "$work/deps/opt/quotaflow/lib/"
  layer_tar "$work/deps" "$work/deps.tar"
  umoci raw add-layer --image "$oci:$base_tag" --tag "$deps_tag" \
    --history.created_by="quotaflow-libs.jar (dist)" "$work/deps.tar"
fi

log "adding the code layer (quotaflow-app.jar, the launcher)"
rm -rf "$work/app" && mkdir -p "$work/app/opt/quotaflow/lib" "$work/app/opt/quotaflow/bin"
install -m 0644 "$app_jar" "$work/app/opt/quotaflow/lib/"
install -m 0755 "$root/deploy/image/quotaflow" "$work/app/opt/quotaflow/bin/"
layer_tar "$work/app" "$work/app.tar"
umoci raw add-layer --image "$oci:$deps_tag" --tag build \
  --history.created_by="quotaflow-app.jar (dist), deploy/image/quotaflow" "$work/app.tar"

revision=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
umoci config --image "$oci:build" --tag release \
  --config.user="$image_uid:$image_uid" \
  --config.entrypoint=/opt/quotaflow/bin/quotaflow \
  --config.cmd=--help \
  --config.env=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --config.env=LANG=C.UTF-8 \
  --config.workingdir=/var/lib/quotaflow \
  --config.label=org.opencontainers.image.title=quotaflow \
  --config.label=org.opencontainers.image.version="$image_version" \
  --config.label=org.opencontainers.image.revision="$revision" \
  --config.label=org.opencontainers.image.base.name="debian:$suite" \
  --history.created_by="entry point, user $image_uid"

# --- The archive: the one image, its blobs and its reference, in one tar. ---
rm -f "$archive"
skopeo copy --quiet "oci:$oci:release" "oci-archive:$archive:$image_ref"

# Keep the cached base and dependency tags; forget the rest and their blobs.
for tag in $(umoci ls --layout "$oci"); do
  case $tag in "$base_tag" | "$deps_tag") ;; *) umoci rm --image "$oci:$tag" ;; esac
done
umoci gc --layout "$oci"
rm -rf "$work"

log "built $archive ($image_ref, $(du -m "$archive" | cut -f1) MB) in $((SECONDS - started)) s:" \
  "Maven $((after_maven - started)) s, base $((after_base - after_maven)) s," \
  "layers and archive $((SECONDS - after_base)) s"

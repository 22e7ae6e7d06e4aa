# Shared by build.sh and test.sh (sourced, not run): where things are, what the image is called,
# and the Debian tools both need.

# The checkout's root, from this file's place in deploy/image/.
root=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)

# The image as build.sh tags it and deploy/kubernetes names it (base/kustomization.yaml's images).
image_name=quotaflow
# The project version, the root pom's first <version> (the parent's own).
image_version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -n 1)
image_ref=$image_name:$image_version
archive=$root/deploy/target/quotaflow-image.tar

# The user the image runs as; the manifests' runAsUser says the same.
image_uid=10001

log() { printf 'image: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# Installs the Debian packages that provide the given commands (command=package) when missing.
ensure_tools() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null 2>&1 || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "needs these Debian packages: ${missing[*]} (run as root to install them)"
  log "installing ${missing[*]} from Debian's packages"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

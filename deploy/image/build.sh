#!/usr/bin/env bash
# Builds the cdpvisor image with podman, offline but for Debian's package
# mirror: no registry is needed.
#
#   bash deploy/image/build.sh [--tag NAME:TAG]      (default localhost/cdpvisor:dev)
#
# 1. The base debian:bookworm-slim: used as it is when podman has it (pulled
#    from a registry, or imported by an earlier run); otherwise made by
#    debootstrap --variant=minbase into a tarball cached under
#    $CDPVISOR_IMAGE_CACHE (default /var/cache/cdpvisor-image, reused when
#    present) and imported under that name. Its packages come from
#    DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR, else from the mirrors this
#    machine's apt uses for bookworm and bookworm-security (apt_mirror.sh);
#    without either it fails saying what to set.
# 2. The binary: CGO_ENABLED=0 go build -trimpath on the host, for the host's
#    architecture, into a build context laid out as GoReleaser's dockers_v2
#    lays it (linux/<arch>/cdpvisor).
# 3. podman build --isolation=chroot --pull=never --format docker -f
#    deploy/Dockerfile (chroot isolation: RUN steps need no OCI runtime;
#    docker format: OCI images drop HEALTHCHECK).
#
# Needs root (debootstrap, podman's chroot isolation). Installs podman and
# debootstrap with apt-get when missing. Prints the image's name as the last
# line on stdout; its steps go to stderr, podman build's output to
# $TMPDIR/cdpvisor-image-build.log (its tail on stderr when it fails).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

tag=localhost/cdpvisor:dev
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --tag=*) tag="${1#--tag=}"; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

base=docker.io/library/debian:bookworm-slim
cache="${CDPVISOR_IMAGE_CACHE:-/var/cache/cdpvisor-image}"

log() { printf 'image/build: %s\n' "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

[[ "$(uname -s)" == Linux ]] || die "Linux only (podman with chroot isolation, debootstrap)"
[[ "$(id -u)" -eq 0 ]] || die "run as root: debootstrap and podman's chroot isolation need it"

# ensure_tool EXE PACKAGE installs PACKAGE with apt-get when EXE is missing.
ensure_tool() {
  command -v "$1" >/dev/null 2>&1 && return
  command -v apt-get >/dev/null 2>&1 || die "$1 is missing and there is no apt-get: install $2"
  log "$1 missing: apt-get install $2"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >&2; then
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >&2
  fi
  command -v "$1" >/dev/null 2>&1 || die "apt-get install $2 gave no $1"
}
ensure_tool podman podman
command -v go >/dev/null 2>&1 || die "go is missing: the binary is built on this machine (go.mod names the version)"

# The Debian mirror: DEBIAN_MIRROR (DEBIAN_SECURITY_MIRROR) or this
# machine's apt sources, never a host of the project's choosing.
# shellcheck source=deploy/image/apt_mirror.sh
source "$root/deploy/image/apt_mirror.sh"

# --- 1. the base image --------------------------------------------------------
if podman image exists "$base"; then
  log "base: $base present in podman's storage"
else
  ensure_tool debootstrap debootstrap
  tarball="$cache/debian-bookworm-minbase-$(dpkg --print-architecture 2>/dev/null || uname -m).tar"
  if [[ -s "$tarball" ]]; then
    log "base: debootstrap tarball cached at $tarball"
  else
    t0="$(now)"
    debian_mirrors || die "$mirror_problem"
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/rootfs.XXXXXX")"
    trap 'rm -rf --one-file-system "$work"' EXIT
    log "base: debootstrap --variant=minbase bookworm from $debian"
    debootstrap --variant=minbase bookworm "$work" "$debian" >"$cache/debootstrap.log" 2>&1 \
      || { tail -20 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }
    # As debian:bookworm-slim has it: the point-release updates and the
    # security suite, deb822 style; no package lists or caches in the image.
    rm -f "$work/etc/apt/sources.list"
    cat >"$work/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$work"/var/lib/apt/lists/* "$work"/var/cache/apt/*.bin "$work"/var/cache/apt/archives/*.deb
    tar --numeric-owner -C "$work" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf --one-file-system "$work"
    trap - EXIT
    log "base: debootstrap done in $(since "$t0"), $(du -h "$tarball" | cut -f1) cached at $tarball"
  fi
  t0="$(now)"
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' \
    "$tarball" "$base" >/dev/null
  log "base: imported as $base in $(since "$t0")"
fi

# --- 2. the binary ------------------------------------------------------------
t0="$(now)"
arch="$(go env GOARCH)"
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
mkdir -p "$context/linux/$arch"
commit="$(git rev-parse --short HEAD 2>/dev/null || true)"
version="${CDPVISOR_VERSION:-0.0.0-image${commit:+-$commit}}"
CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -trimpath \
  -ldflags "-s -w -X main.version=$version -X main.commit=$commit" \
  -o "$context/linux/$arch/cdpvisor" ./cmd/cdpvisor
log "binary: linux/$arch cdpvisor $version built in $(since "$t0")"

# --- 3. the image ---------------------------------------------------------------
t0="$(now)"
buildlog="${TMPDIR:-/tmp}/cdpvisor-image-build.log"
log "podman build -t $tag (apt-get install chromium inside: about a minute; output in $buildlog)"
if ! podman build --isolation=chroot --pull=never --format docker \
  --platform "linux/$arch" --build-arg "TARGETPLATFORM=linux/$arch" \
  --label "org.opencontainers.image.version=$version" \
  ${commit:+--label "org.opencontainers.image.revision=$commit"} \
  -f deploy/Dockerfile -t "$tag" "$context" >"$buildlog" 2>&1; then
  tail -n 40 "$buildlog" >&2
  die "podman build failed (whole output: $buildlog)"
fi
log "image: $tag built in $(since "$t0"), $(podman image inspect --format '{{.Size}}' "$tag" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
echo "$tag"

#!/bin/sh
# Builds the Debian 12 base image the Dockerfile starts from, out of Debian's packages
# (debootstrap), for a machine where no image registry answers (docs/operations.md,
# "Container image"). Run as root; needs debootstrap and podman (or docker with an engine).
#
#   scripts/container/build-base-image.sh            # makes localhost/sticky-base:bookworm
#   BASE_IMAGE=... DEBIAN_MIRROR=http://... scripts/container/build-base-image.sh
set -eu

tag="${BASE_IMAGE:-localhost/sticky-base:bookworm}"
suite=bookworm
engine="${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}"
if [ -z "$engine" ]; then
  echo "Neither podman nor docker is installed: apt-get install -y podman" >&2
  exit 1
fi
if ! command -v debootstrap > /dev/null; then
  echo "debootstrap is not installed: apt-get install -y debootstrap" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "debootstrap makes device nodes and owns files as root: run this as root" >&2
  exit 1
fi

rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
# minbase: dpkg, apt and the essential packages, like the registry's debian:bookworm-slim.
# DEBIAN_MIRROR unset: debootstrap's own default mirror.
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" ${DEBIAN_MIRROR:-}

# Security and point-release updates too, from the mirror debootstrap used.
mirror="$(awk '/^deb /{ print $2; exit }' "$rootfs/etc/apt/sources.list")"
cat > "$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
SOURCES
chroot "$rootfs" apt-get update
chroot "$rootfs" env DEBIAN_FRONTEND=noninteractive apt-get -y upgrade
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
  "$rootfs"/var/log/*.log "$rootfs"/tmp/*

tar --numeric-owner -C "$rootfs" -c . \
  | "$engine" import --change 'CMD ["/bin/bash"]' - "$tag"
echo "built $tag"

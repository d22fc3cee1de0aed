#!/usr/bin/env bash
# Makes the base image the officegym image builds on, without any image registry: a minimal
# Debian root filesystem from debootstrap, imported with `docker import`. Does nothing when
# the image already exists, so it is cheap to call before every build.
#
#   compose/make-base-image.sh [image-name]      (default officegym-base:bookworm)
#
# SUITE and MIRROR choose the Debian release and mirror (defaults: bookworm, the first
# deb.debian.org-style URI in this machine's apt sources, else deb.debian.org).
set -euo pipefail

IMAGE="${1:-${BASE_IMAGE:-officegym-base:bookworm}}"
SUITE="${SUITE:-bookworm}"

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "base image $IMAGE exists"
  exit 0
fi

if [ -z "${MIRROR:-}" ]; then
  # Active entries only ("deb URL …" or deb822 "URIs: URL"), never comments.
  MIRROR="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
            | grep -E '^(deb|URIs:)[[:space:]]' | grep -oE 'https?://[^ ]+' | grep -v security | head -1 || true)"
  MIRROR="${MIRROR:-http://deb.debian.org/debian}"
fi

command -v debootstrap >/dev/null || {
  echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 1; }

ROOTFS="$(mktemp -d "${TMPDIR:-/tmp}/officegym-rootfs.XXXXXX")"
trap 'rm -rf "$ROOTFS"' EXIT

echo "debootstrap $SUITE from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$ROOTFS" "$MIRROR" > "$ROOTFS.log" 2>&1 || {
  tail -20 "$ROOTFS.log" >&2; exit 1; }
rm -f "$ROOTFS.log"

# Security updates next to the release, as a Debian container would have them.
cat > "$ROOTFS/etc/apt/sources.list" <<SOURCES
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb ${MIRROR%/debian*}/debian-security $SUITE-security main
SOURCES

# What the official Debian images drop: package caches, docs, man pages, logs.
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin \
       "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
       "$ROOTFS"/var/log/*.log "$ROOTFS"/tmp/*
# Keep apt from filling the image with docs and recommended packages later.
cat > "$ROOTFS/etc/apt/apt.conf.d/90officegym-slim" <<'CONF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
CONF
cat > "$ROOTFS/etc/dpkg/dpkg.cfg.d/90officegym-nodoc" <<'CONF'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CONF

tar --numeric-owner -C "$ROOTFS" -c . \
  | docker import --change 'CMD ["/bin/bash"]' --change 'ENV LANG=C.UTF-8' - "$IMAGE" >/dev/null
echo "made base image $IMAGE"

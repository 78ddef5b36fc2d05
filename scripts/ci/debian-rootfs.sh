#!/bin/sh
# Makes a minimal Debian bookworm root filesystem tarball (debootstrap --variant=minbase) for the tests that
# install the Debian package into a fresh root and for the container image's local base (docs/operations.md).
# Usage: scripts/ci/debian-rootfs.sh <dest.tar>
# The tarball is cached under /var/cache/hearth-ci/, keyed by this script's hash, so a second call is a copy.
# Two callers at once are safe: the build runs under flock and the cached file appears by rename only.
set -eu

dest=${1:?usage: debian-rootfs.sh <dest.tar>}
mirror=${HEARTH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
cache=/var/cache/hearth-ci
script_hash=$(sha256sum "$0" | cut -c1-16)
cached="$cache/debian-$suite-minbase-$script_hash.tar"

mkdir -p "$cache"
if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

build() {
  work=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # curl: the node's one-step install fetches the package from the panel; restic and bubblewrap: the package's
  # dependencies (docs/operations.md § Debian package), so installing it needs no apt mirror.
  debootstrap --variant=minbase --include=ca-certificates,curl,restic,bubblewrap "$suite" "$work/root" "$mirror" >"$work/log" 2>&1 \
    || { tail -30 "$work/log" >&2; exit 1; }
  # Drop what a test root never needs: the apt lists and archives (re-fetchable) and documentation.
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"* \
    "$work/root/usr/share/doc/"* "$work/root/usr/share/man/"* "$work/root/usr/share/locale/"*
  tar -C "$work/root" --numeric-owner -cf "$work/rootfs.tar" .
  mv "$work/rootfs.tar" "$cached"
  rm -rf "$work"
  trap - EXIT
}

(
  flock 9
  [ -s "$cached" ] || build
) 9>"$cache/debian-rootfs.lock"

if [ "$(readlink -f "$dest")" != "$(readlink -f "$cached")" ]; then
  tmp="$dest.tmp.$$"
  cp "$cached" "$tmp"
  mv "$tmp" "$dest"
fi
echo "$dest"

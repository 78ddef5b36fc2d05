#!/bin/sh
# Imports the container image's base where no registry is reachable (docs/operations.md § Container): Debian
# bookworm minbase (scripts/ci/debian-rootfs.sh, from Debian's own packages) plus this machine's Node 20 and npm
# at /usr/local, where the official node images have them. The host is bookworm too, so its node binary links
# against the same glibc and libstdc++ the root holds.
# Usage: scripts/ci/base-image.sh [image]   (default hearth-ci/node-base:bookworm)
# A second call is a no-op while the image carries the same rootfs script and Node version (labels).
set -eu

image=${1:-hearth-ci/node-base:bookworm}
here=$(cd "$(dirname "$0")" && pwd)
node=$(readlink -f "$(command -v node)")
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
version=$("$node" --version)
rootfs_hash=$(sha256sum "$here/debian-rootfs.sh" "$0" | sha256sum | cut -c1-16)

current=$(docker image inspect -f '{{index .Config.Labels "hearth.base"}}' "$image" 2>/dev/null || true)
if [ "$current" = "$rootfs_hash-$version" ]; then
  echo "$image"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/debian-rootfs.sh" "$work/rootfs.tar" >/dev/null
mkdir "$work/root"
tar -C "$work/root" --numeric-owner -xf "$work/rootfs.tar"
rm "$work/rootfs.tar"
install -D -m 0755 "$node" "$work/root/usr/local/bin/node"
mkdir -p "$work/root/usr/local/lib/node_modules" "$work/root/usr/local/include"
cp -a "$npm_dir" "$work/root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
# Headers for native modules built against this Node (npm's nodedir), as in the official images.
if [ -d /usr/include/node ]; then cp -a /usr/include/node "$work/root/usr/local/include/node"; fi
tar -C "$work/root" --numeric-owner -c . | docker import \
  -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  -c "LABEL hearth.base=$rootfs_hash-$version" \
  -c 'CMD ["node"]' - "$image" >/dev/null
echo "$image"

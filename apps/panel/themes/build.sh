#!/bin/sh
# Rebuilds <name>.tar from each theme folder (theme.json, theme.css, assets) as a reproducible ustar
# archive: the browser reads it in 512-byte blocks. Run after editing a theme; the tars are committed.
set -eu
cd "$(dirname "$0")"
for dir in */; do
  name=${dir%/}
  # Entry names without a leading "./": the web app looks files up by their plain names.
  (cd "$name" && tar --format=ustar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "../$name.tar" -- *)
  echo "built $name.tar"
done

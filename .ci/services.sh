#!/usr/bin/env bash
# Starts the services the tests use when they are not running: PostgreSQL, MariaDB and the Docker engine,
# and builds the tiny local test image (no registry is reachable). Idempotent. Exits non-zero when a service
# the tests need is still down after the wait, so CI stops here with the reason instead of failing later.
set -uo pipefail

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if ! mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi

if ! docker info >/dev/null 2>&1; then
  mkdir -p /var/log/hearth-ci
  nohup dockerd >/var/log/hearth-ci/dockerd.log 2>&1 &
fi

for i in $(seq 1 60); do
  pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1 \
    && docker info >/dev/null 2>&1 && break
  sleep 1
done
down=0
pg_isready -h 127.0.0.1 -p 5432 || { echo "PostgreSQL is not answering"; down=1; }
mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1 || { echo "MariaDB is not answering"; down=1; }
if docker info >/dev/null 2>&1; then
  if ! docker image inspect hearth-test/busybox:1 >/dev/null 2>&1; then
    dir=$(mktemp -d)
    mkdir -p "$dir/bin" "$dir/tmp"
    cp /bin/busybox "$dir/bin/busybox"
    for c in sh echo sleep cat ls env head yes dd; do ln -s busybox "$dir/bin/$c"; done
    tar -C "$dir" -c . | docker import - hearth-test/busybox:1 >/dev/null
    rm -rf "$dir"
  fi
  docker image inspect hearth-test/busybox:1 >/dev/null 2>&1 || { echo "could not build hearth-test/busybox:1"; down=1; }
else
  echo "Docker engine is not answering (see /var/log/hearth-ci/dockerd.log)"
  down=1
fi
exit $down

#!/usr/bin/env bash
# Servers for the snowmint/lease tests (each test starts its own on a free
# loopback port and stops it; nothing runs as a service): Debian's
# redis-server (/usr/bin/redis-server) and etcd-server (/usr/bin/etcd).
source "$(dirname "$0")/../lib.sh"
apt_install redis-server etcd-server faketime # faketime: a process whose clock is off (skew tests)
# The Debian packages start system services on install; the tests need none.
for svc in redis-server etcd; do
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$svc" 2>/dev/null; then
    systemctl stop "$svc" || true
  fi
done
command -v redis-server >/dev/null && command -v etcd >/dev/null

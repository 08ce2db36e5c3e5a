#!/usr/bin/env bash
# Clients for the snowmint-server tests (scripts/test.d/90-server.sh), none
# written here: redis-cli and redis-benchmark (Debian redis-tools), h2load
# (nghttp2-client), curl, libfaketime, and Python's redis and requests in a
# venv under tmp/ (PyPI); redis-server, etcd-server and ZooKeeper, the
# coordinators of --lease redis://, etcd:// and zk:// (50-lease.sh, 55-zookeeper.sh).
source "$(dirname "$0")/../lib.sh"
apt_install redis-tools nghttp2-client faketime curl python3-venv
command -v redis-server >/dev/null && command -v etcd >/dev/null || bash "$(dirname "$0")/50-lease.sh"
test -f /usr/share/java/zookeeper.jar && command -v java >/dev/null || bash "$(dirname "$0")/55-zookeeper.sh" # --lease zk://
venv="$ROOT/tmp/server-venv"
if ! "$venv/bin/python" -c 'import redis, requests' 2>/dev/null; then
  say "python venv $venv: redis, requests"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check redis requests
fi
command -v redis-cli >/dev/null && command -v redis-benchmark >/dev/null && command -v h2load >/dev/null && command -v faketime >/dev/null && command -v etcd >/dev/null

#!/usr/bin/env bash
# ZooKeeper for the snowmint/lease tests: Debian's `zookeeper` package (its
# jars; apt pulls in a JRE). tests/lease/servers.js starts a standalone
# server on a free loopback port in a temp directory and stops it; nothing
# runs as a service.
source "$(dirname "$0")/../lib.sh"
apt_install zookeeper
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet zookeeper 2>/dev/null; then
  systemctl stop zookeeper || true
fi
test -f /usr/share/java/zookeeper.jar && command -v java >/dev/null

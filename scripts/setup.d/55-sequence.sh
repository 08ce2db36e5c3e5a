#!/usr/bin/env bash
# snowmint/sequence's tests and benchmark: Debian's MariaDB server (the tests
# run a private mariadbd with its own datadir, socket and loopback port; no
# system instance is used), plus the PostgreSQL and Redis servers that
# 80-postgres.sh and 50-lease.sh install.
source "$(dirname "$0")/../lib.sh"
apt_install mariadb-server
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ]

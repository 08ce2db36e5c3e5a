#!/usr/bin/env bash
# snowmint/sequence: the API on SQLite, then the fault suite per store against
# its real server, each started by the tests on a free loopback port in a temp
# directory (a private PostgreSQL cluster, a private mariadbd, Redis, an SQLite
# file): 8 processes x 100k next() with 0 duplicates, a SIGKILLed process,
# an outage longer than the buffered blocks, two processes at 1x and 18x the rate;
# and the README's and docs' examples that need PostgreSQL, run as written
# (tests/sequence/docs.test.js).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
command -v redis-server >/dev/null || bash scripts/setup.d/50-lease.sh
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || bash scripts/setup.d/80-postgres.sh
command -v mariadb-install-db >/dev/null || bash scripts/setup.d/55-sequence.sh
# One file at a time: the machine may have two cores, and each file starts a server.
node --test --test-concurrency=1 tests/sequence/

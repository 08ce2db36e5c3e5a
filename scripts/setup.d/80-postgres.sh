#!/usr/bin/env bash
# For the index benchmark (bench/index): Debian's PostgreSQL server with
# pgstattuple (postgresql-contrib), whose package also creates the
# unprivileged `postgres` OS user the benchmark runs its private cluster as
# when it is root; and DejaVu Sans, the one font file the plot is drawn with.
# No cluster of the system's is used: the benchmark initdb's its own.
source "$(dirname "$0")/../lib.sh"
apt_install postgresql postgresql-contrib fonts-dejavu-core
id -u postgres >/dev/null

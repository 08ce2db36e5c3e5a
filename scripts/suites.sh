# The suites of scripts/test.d/ by name (the file name without its number),
# and what each needs first: its set-up parts (scripts/setup.d/) and build
# parts (scripts/build.d/). `scripts/test.sh SUITE...` runs only those; the
# bare command runs every part. Sourced by scripts/test.sh.
#
# For a change in...              run
#   core/                         core (then node, wasm: the bindings follow it)
#   lease/, npm/src/lease/        lease
#   node/, npm/src/ (not lease)   node
#   wasm/, npm/src/wasm-*.js      wasm, browser
#   npm/src/sequence/             sequence
#   npm/src/json.js, npm/src/json/ json
#   sql/, pg/, tests/database/      database
#   sqlite/, npm/src/sqlite*, tests/sqlite/  sqlite
#   server/, tests/server/        server
#   npm/package.json, packaging   pack, platforms, release
#   scripts/release.sh            release, lint (.github/workflows/)
#   docs/, README.md              node (the examples that need no server), lease (those that
#                                 need Redis, etcd or ZooKeeper, docs/deploy.md's, docs/lease.md's
#                                 Rust), sequence (those that need PostgreSQL), core (the Rust ones)
# suite -> "set-up parts | build parts"
declare -A SUITE_NEEDS=(
  [core]="10-toolchain |"
  [msrv]="10-toolchain |"
  [lint]="10-toolchain 15-actionlint |"
  [node]="10-toolchain | 10-entries 15-wasm 20-node"
  [wasm]="10-toolchain | 10-entries 15-wasm 20-node"
  [pack]="10-toolchain 70-cross | 10-entries 15-wasm 20-node 25-cross"
  [platforms]="10-toolchain 70-cross 72-node-builds | 10-entries 15-wasm 20-node 25-cross"
  [runtimes]="10-toolchain 70-cross 72-node-builds 74-runtimes | 10-entries 15-wasm 20-node 25-cross"
  [lease]="10-toolchain 50-lease 55-zookeeper | 10-entries 15-wasm 20-node"
  [bounds]="10-toolchain 80-postgres | 10-entries 15-wasm 20-node"
  [sequence]="10-toolchain 50-lease 55-sequence 80-postgres | 10-entries 15-wasm 20-node"
  [json]="10-toolchain 60-browsers 72-node-builds | 10-entries 15-wasm 20-node"
  [browser]="10-toolchain 60-browsers | 10-entries 15-wasm 20-node"
  [bench-index]="10-toolchain 80-postgres |"
  [database]="10-toolchain 85-database | 10-entries 15-wasm 20-node"
  [sqlite]="10-toolchain 86-sqlite | 10-entries 15-wasm 20-node 22-sqlite"
  [release]="10-toolchain 70-cross 72-node-builds 85-release | 10-entries 15-wasm 20-node 25-cross"
  [wasm-size]="10-toolchain 60-browsers | 10-entries 15-wasm"
  [server]="10-toolchain 90-server | 10-entries 15-wasm 20-node"
)
# Suites that need every platform package cross-compiled, not only this machine's.
ALL_PLATFORMS_SUITES=" platforms runtimes release "

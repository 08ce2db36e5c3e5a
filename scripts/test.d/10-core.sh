#!/usr/bin/env bash
# The core crate: formatting, lints, the binding protocol's generated JS and
# types up to date, every test (in release: the fault tests
# mint millions of IDs from four threads), the no_std build, warning-free
# docs, and a stable compile check of the fuzz targets (fuzzing itself needs
# nightly features and minutes per target: see docs/fuzz.md).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

say "cargo fmt --check"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo fmt --manifest-path bench/index/Cargo.toml -- --check

say "cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

say "binding protocol: npm/index.d.ts and npm/src/errors.js follow the core"
cargo run -q -p snowmint --example protocol -- --check

say "cargo test -p snowmint (release)"
cargo test --release -p snowmint

# The opt-in expiry words (signal handler, per-thread timers): every test
# again, as new_ulid()/new_uuid_v7() then run, and tests/expiry.rs.
say "cargo test -p snowmint --features expiry (release)"
cargo test --release -p snowmint --features expiry

say "no_std build (x86_64-unknown-none), with the block sequences"
cargo build -p snowmint --no-default-features --features sequence --target x86_64-unknown-none
# With the name-based UUIDs too: that target has no SSE, which sha1's x86 SHA-NI
# backend needs, so RustCrypto's cfg selects its portable backend (what any
# bare-metal x86 user of the `name-based` feature sets too).
RUSTFLAGS='--cfg sha1_backend="soft"' cargo build -p snowmint --no-default-features --features sequence,name-based --target x86_64-unknown-none

say "cargo doc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc -p snowmint --no-deps
RUSTDOCFLAGS="-D warnings" cargo doc -p snowmint --no-deps --features expiry

say "fuzz targets compile (clippy -D warnings)"
cargo clippy --manifest-path fuzz/Cargo.toml --bins -- -D warnings

say "index benchmark (own workspace): clippy -D warnings"
cargo clippy --manifest-path bench/index/Cargo.toml --all-targets -- -D warnings

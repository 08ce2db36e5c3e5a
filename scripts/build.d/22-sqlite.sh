#!/usr/bin/env bash
# The standalone SQLite extension for programs other than Node (the sqlite3
# shell): the crate sqlite/ (snowmint-sqlite) with feature `extension`,
# built as a cdylib for this machine only, into target/sqlite/snowmint.so
# (.dylib on macOS). A Node addon cannot be loaded there: SQLite opens an
# extension with RTLD_NOW, and the addon's napi_* symbols only resolve
# inside Node. The file name makes SQLite's default entry point
# sqlite3_snowmint_init; `.load target/sqlite/snowmint` works.
source "$(dirname "$0")/../lib.sh"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
cargo rustc --release -q -p snowmint-sqlite --features extension --crate-type cdylib
case "$(uname -s)" in Darwin) lib=libsnowmint_sqlite.dylib ext=dylib ;; *) lib=libsnowmint_sqlite.so ext=so ;; esac
mkdir -p "$TARGET_DIR/sqlite"
cp "$TARGET_DIR/release/$lib" "$TARGET_DIR/sqlite/.snowmint.$ext.tmp"
mv -f "$TARGET_DIR/sqlite/.snowmint.$ext.tmp" "$TARGET_DIR/sqlite/snowmint.$ext"
printf '  %s %d bytes\n' "$TARGET_DIR/sqlite/snowmint.$ext" "$(wc -c <"$TARGET_DIR/sqlite/snowmint.$ext")"

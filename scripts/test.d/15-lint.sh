#!/usr/bin/env bash
# JavaScript lint and format (Biome, biome.json) over npm/, tests/, bench/,
# inspector/ and the wasm build's scripts: `biome ci` fails on any finding.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
biome ci --colors=off .

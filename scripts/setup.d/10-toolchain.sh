# Rust targets and the npm dev tooling used by every build.
source "$(dirname "$0")/../lib.sh"
installed=$(rustup target list --installed)
for t in wasm32-unknown-unknown x86_64-unknown-none; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
rustup component list --installed | grep -q '^clippy' || rustup component add clippy rustfmt
cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error

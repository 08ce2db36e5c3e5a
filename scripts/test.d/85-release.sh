#!/usr/bin/env bash
# The release, end to end, against a real registry: Verdaccio 5.0.0
# (tests/release/, scripts/setup.d/85-release.sh) started on a free loopback
# port; scripts/release.sh --publish run on a copy of the working tree, twice
# (two prereleases, X.Y.Z-e2e.1 then -e2e.2), with the packages the build
# parts already made (--no-build: the seven platform packages of
# scripts/build.d/25-cross.sh); then snowmint installed by name, as users do:
#   npm (with the upgrade from the first prerelease to the second), pnpm 9,
#   yarn 1, yarn 4 (berry) and Bun on glibc x64; npm run by a musl Node (the
#   musl loader of the platform suites) and by an arm64 Node under
#   qemu-user-static; a package-lock.json written for darwin-arm64, then
#   `npm ci` on Linux; `npm install --omit=optional`, which takes the wasm
#   fallback and says why.
# Each app then runs tests/release/probe.mjs: the backend and platform package
# expected, the version installed, the ES and CommonJS entries, IDs minted and
# decoded. Verdaccio is stopped at the end, whatever happens.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/platforms.sh"
source "$ROOT/scripts/platform-suites.sh" # fail
export SNOWMINT_LEASE=local               # the zero-config lease, in this container
start=$SECONDS
tools="$ROOT/tests/release/node_modules"
[ -x "$tools/.bin/verdaccio" ] || fail "run scripts/setup.d/85-release.sh first"
tmp=$(mktemp -d)
registry_pid=
cleanup() {
  local rc=$?
  if [ "$rc" != 0 ] && [ -f "$tmp/registry/log" ]; then
    echo "--- the registry's log (last 30 lines)"
    tail -n 30 "$tmp/registry/log"
    kill -0 "$registry_pid" 2>/dev/null || echo "--- Verdaccio is not running"
  fi
  if [ -n "$registry_pid" ]; then kill "$registry_pid" 2>/dev/null || true; wait "$registry_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
step() { say "$* ($((SECONDS - start)) s)"; }

step "the registry: Verdaccio $(node -p "require('$tools/verdaccio/package.json').version") on loopback"
port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
REGISTRY="http://127.0.0.1:$port/"
mkdir -p "$tmp/registry"
cat >"$tmp/registry/config.yaml" <<YAML
storage: $tmp/registry/storage
auth:
  htpasswd:
    file: $tmp/registry/htpasswd
    max_users: -1
uplinks: {}
packages:
  '**':
    access: \$all
    publish: \$all
logs: { type: stdout, format: pretty, level: warn }
YAML
node "$tools/verdaccio/bin/verdaccio" -c "$tmp/registry/config.yaml" -l "127.0.0.1:$port" >"$tmp/registry/log" 2>&1 &
registry_pid=$!
for _ in $(seq 1 100); do
  curl -sf "${REGISTRY}-/ping" >/dev/null && break
  kill -0 "$registry_pid" 2>/dev/null || { cat "$tmp/registry/log"; fail "Verdaccio exited"; }
  sleep 0.2
done
curl -sf "${REGISTRY}-/ping" >/dev/null || { cat "$tmp/registry/log"; fail "Verdaccio did not answer on $REGISTRY within 20 s"; }
echo "  $REGISTRY"

step "the release tree: the working tree's files and the built artifacts"
tree="$tmp/tree"
mkdir "$tree"
(cd "$ROOT" && git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$tree"
(cd "$ROOT" && tar -cf - npm/wasm npm/dist npm/entries/node.js npm/entries/browser.js npm/entries/workerd.js npm/LICENSE-* npm/platforms/*/*.node npm/platforms/*/LICENSE-*) | tar -xf - -C "$tree"
ln -s "$ROOT/node_modules" "$tree/node_modules"
base=$(node -p "require('$ROOT/npm/package.json').version.replace(/-.*/, '')")
V1="$base-e2e.1" V2="$base-e2e.2"
for v in "$V1" "$V2"; do
  step "scripts/release.sh $v --publish --no-build"
  # The crates' dry run builds in the repository's target directory (its dependencies are built there).
  (cd "$tree" && NPM_REGISTRY=$REGISTRY NPM_TOKEN=e2e CARGO_REGISTRY=none CARGO_TARGET_DIR="$ROOT/target" \
    bash scripts/release.sh "$v" --publish --no-build) >"$tmp/release-$v.log" 2>&1 || { cat "$tmp/release-$v.log"; fail "scripts/release.sh $v"; }
  grep -E '^==> |^  (snowmint|Packaged|[0-9]+ platform)' "$tmp/release-$v.log" | sed 's/^==> /  /' | grep -vE '^  (version|npm pack|publint|attw|cargo|package sizes|dry run)' || true
  for p in "" "${PLATFORMS[@]/#/-}"; do
    got=$(npm view "snowmint$p@$v" version --registry "$REGISTRY" 2>/dev/null) || true
    [ "$got" = "$v" ] || fail "snowmint$p@$v is not on the registry after the release"
  done
done
[ "$(npm view snowmint dist-tags.next --registry "$REGISTRY")" = "$V2" ] || fail "dist-tag next is not $V2"
echo "  snowmint and its $((${#PLATFORMS[@]})) platform packages at $V1 and $V2; dist-tag next: $V2"

# app NAME: a fresh, empty app folder with the probe.
app() {
  mkdir -p "$tmp/$1"
  printf '{ "name": "app-%s", "version": "1.0.0", "private": true }\n' "$1" >"$tmp/$1/package.json"
  cp "$ROOT/tests/release/probe.mjs" "$tmp/$1/"
  echo "$tmp/$1"
}
probe() { # probe DIR NODE BACKEND PLATFORM VERSION
  (cd "$1" && "$2" probe.mjs "$3" "$4" "$5") || fail "the probe in $(basename "$1")"
}
# Every client gets a cache of its own: what it installs comes from the registry.
export npm_config_cache="$tmp/npm-cache" npm_config_registry="$REGISTRY" npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
NPM_CLI=$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js
[ -f "$NPM_CLI" ] || NPM_CLI=$(npm root -g)/npm/bin/npm-cli.js
npm_() { npm --loglevel=error "$@" >/dev/null; }

step "npm $(npm -v), glibc x64: snowmint@$V1, then the upgrade to @next ($V2)"
d=$(app npm)
(cd "$d" && npm_ install "snowmint@$V1")
probe "$d" node native linux-x64-gnu "$V1"
(cd "$d" && npm_ install snowmint@next)
probe "$d" node native linux-x64-gnu "$V2"

step "pnpm $("$tools/.bin/pnpm" --version), glibc x64"
d=$(app pnpm)
(cd "$d" && "$tools/.bin/pnpm" add snowmint@next --registry "$REGISTRY" --store-dir "$tmp/pnpm-store" --reporter=silent)
probe "$d" node native linux-x64-gnu "$V2"

yarn1="$tools/yarn/bin/yarn.js" # not .bin/yarn, which yarn 4's package may have taken
step "yarn $(node "$yarn1" --version), glibc x64"
d=$(app yarn1)
(cd "$d" && node "$yarn1" add snowmint@next --registry "$REGISTRY" --cache-folder "$tmp/yarn1-cache" --silent --no-progress >/dev/null)
probe "$d" node native linux-x64-gnu "$V2"

berry="$tools/@yarnpkg/cli-dist/bin/yarn.js"
step "yarn $(cd "$tmp" && node "$berry" --version) (berry), glibc x64, node-modules linker"
d=$(app berry)
cat >"$d/.yarnrc.yml" <<YAML
npmRegistryServer: "$REGISTRY"
unsafeHttpWhitelist: ["127.0.0.1"]
nodeLinker: node-modules
enableGlobalCache: false
enableTelemetry: false
npmMinimalAgeGate: 0
cacheFolder: "$tmp/berry-cache"
globalFolder: "$tmp/berry-global"
YAML
touch "$d/yarn.lock"
(cd "$d" && YARN_ENABLE_IMMUTABLE_INSTALLS=false node "$berry" add snowmint@next >"$tmp/berry.log" 2>&1) || { cat "$tmp/berry.log"; fail "yarn berry add"; }
probe "$d" node native linux-x64-gnu "$V2"

step "bun $("$tools/.bin/bun" --version), glibc x64"
d=$(app bun)
printf '[install]\nregistry = "%s"\ncache = "%s"\n' "$REGISTRY" "$tmp/bun-cache" >"$d/bunfig.toml"
(cd "$d" && "$tools/.bin/bun" add snowmint@next >"$tmp/bun.log" 2>&1) || { cat "$tmp/bun.log"; fail "bun add"; }
probe "$d" node native linux-x64-gnu "$V2"
probe "$d" "$tools/.bin/bun" native linux-x64-gnu "$V2"

musl_node=$(node_bin musl x64 "${NODE_MUSL_VERSIONS[-1]}")
step "npm run by a musl Node ($("$musl_node" -v)), x64"
d=$(app musl)
# npm tells glibc from musl by /usr/bin/ldd first (npm-install-checks), which
# is this glibc machine's: --libc=musl says what Alpine's would.
(cd "$d" && "$musl_node" "$NPM_CLI" --loglevel=error install snowmint@next --libc=musl >/dev/null)
probe "$d" "$musl_node" native linux-x64-musl "$V2"

arm_node=$(node_bin gnu arm64 "$NODE_ARM64_GNU_VERSION")
step "npm run by an arm64 glibc Node ($NODE_ARM64_GNU_VERSION) under qemu-user-static"
d=$(app arm64)
(cd "$d" && "$arm_node" "$NPM_CLI" --loglevel=error install snowmint@next >/dev/null)
probe "$d" "$arm_node" native linux-arm64-gnu "$V2"

step "a package-lock.json written for darwin-arm64, then npm ci on Linux"
d=$(app lock-darwin)
(cd "$d" && npm_ install snowmint@next --os=darwin --cpu=arm64)
[ -d "$d/node_modules/snowmint-darwin-arm64" ] || fail "npm --os=darwin --cpu=arm64 did not install snowmint-darwin-arm64"
node -e "
  const lock = require('$d/package-lock.json');
  const missing = '${PLATFORMS[*]}'.split(' ').filter((p) => !lock.packages['node_modules/snowmint-' + p]?.integrity);
  if (missing.length) { console.error('the lockfile lacks', missing); process.exit(1); }"
c=$(app ci)
cp "$d/package.json" "$d/package-lock.json" "$c/"
(cd "$c" && npm_ ci)
probe "$c" node native linux-x64-gnu "$V2"

step "npm install --omit=optional: the wasm fallback, and why"
d=$(app omit)
(cd "$d" && npm_ install snowmint@next --omit=optional)
[ ! -e "$d/node_modules/snowmint-linux-x64-gnu" ] || fail "--omit=optional installed snowmint-linux-x64-gnu"
probe "$d" node wasm linux-x64-gnu "$V2"

step "done: Verdaccio stopped"

#!/usr/bin/env bash
# The release command: scripts/release.sh X.Y.Z [--publish] [--no-build] [--provenance]
#
#  1. bumps every version at once: the workspace's (every crate takes it),
#     the path dependencies of the publishable crates, npm/package.json with
#     its pinned optionalDependencies, and the seven platform packages;
#  2. writes the CHANGELOG section X.Y.Z (not for a prerelease, which ships
#     what "Unreleased" says): the "Unreleased" text when there is one, else
#     the subjects of the commits since the last tag, for the releaser to edit;
#  3. builds every artifact (scripts/build.sh with all seven platform
#     packages; --no-build takes those already built, as CI's publish job and
#     the release test do) and packs the nine tarballs into tmp/release/X.Y.Z/
#     with their SHA256SUMS;
#  4. checks them: each platform package holds its binary, no package ships a
#     test or a source map without its sources, every package carries both
#     licences, publint --strict, attw (profile node16: node16 and bundler
#     resolution; node10 is unsupported, as the README says), and
#     `cargo publish --dry-run` of snowmint, snowmint-lease and snowmint-server;
#  5. writes the package sizes into the marked regions of README.md and
#     docs/platforms.md;
#  6. with --publish only: publishes the platform packages, then snowmint, to
#     NPM_REGISTRY (a prerelease under the dist-tag `next`; --provenance is
#     passed to `npm publish`; NPM_TOKEN, if set, is the registry's token), and
#     the crates to CARGO_REGISTRY (`crates-io`, a registry name of cargo's
#     config, or an index URL; `none` publishes no crate). A version already on
#     a registry is skipped, so a release that failed halfway can be re-run.
# Without --publish it is a dry run of all of the above: nothing leaves the machine.
source "$(dirname "$0")/lib.sh"
source "$ROOT/scripts/platforms.sh"
usage() { echo "usage: scripts/release.sh X.Y.Z [--publish] [--no-build] [--provenance]" >&2; exit 2; }
[ $# -ge 1 ] || usage
VERSION=$1
shift
[[ "$VERSION" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$ ]] || { echo "not a semver version: $VERSION" >&2; usage; }
publish=0 build=1 provenance=()
for arg in "$@"; do
  case $arg in
    --publish) publish=1 ;;
    --no-build) build=0 ;;
    --provenance) provenance=(--provenance) ;;
    *) usage ;;
  esac
done
prerelease=0
[[ "$VERSION" == *-* ]] && prerelease=1
CRATES=(snowmint snowmint-lease snowmint-server) # the publishable crates, in dependency order
if [ $publish = 1 ]; then
  [ -n "${NPM_REGISTRY:-}" ] || { echo "--publish needs NPM_REGISTRY (say https://registry.npmjs.org/)" >&2; exit 2; }
  [ -n "${CARGO_REGISTRY:-}" ] || { echo "--publish needs CARGO_REGISTRY (crates-io, a registry name, an index URL, or none)" >&2; exit 2; }
fi
cd "$ROOT"

say "version $VERSION"
node - "$VERSION" "${PLATFORMS[@]}" <<'JS'
const { readFileSync, writeFileSync } = require('node:fs');
const [version, ...platforms] = process.argv.slice(2);
const edit = (file, change) => {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  change(json);
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`  ${file}: ${json.name}@${json.version}`);
};
edit('npm/package.json', (m) => {
  m.version = version;
  m.optionalDependencies = Object.fromEntries(platforms.map((p) => [`snowmint-${p}`, version]));
});
for (const p of platforms) edit(`npm/platforms/${p}/package.json`, (m) => { m.version = version; });
JS
# The workspace's version (every crate has version.workspace = true), and the
# version of each path dependency that has one (cargo publish needs it).
sed -i '/^\[workspace\.package\]/,/^\[/ s/^version = ".*"/version = "'"$VERSION"'"/' Cargo.toml
for toml in core/Cargo.toml lease/Cargo.toml node/Cargo.toml wasm/Cargo.toml wasm/mint/Cargo.toml server/Cargo.toml; do
  sed -i 's/\(path = "[^"]*", version = "\)[^"]*"/\1'"$VERSION"'"/g' "$toml"
done
grep -q "^version = \"$VERSION\"" Cargo.toml || { echo "Cargo.toml: no [workspace.package] version was set" >&2; exit 1; }
cargo update --workspace --offline -q 2>/dev/null || cargo update --workspace -q
echo "  Cargo.toml: workspace version $VERSION; Cargo.lock"

if [ $prerelease = 1 ]; then
  say "CHANGELOG.md: a prerelease gets no section of its own"
elif grep -q "^## $VERSION\( \|$\)" CHANGELOG.md; then
  say "CHANGELOG.md already has a section $VERSION"
else
  last_tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)
  log=$(git log --no-merges --format='- %s (%h)' ${last_tag:+"$last_tag..HEAD"})
  node - "$VERSION" "$(date -u +%Y-%m-%d)" "${last_tag:-the first commit}" "$log" <<'JS'
// "## Unreleased" stays, empty, above the new section. The new section takes
// its text; with none, the commit subjects since the last tag (to edit).
const { readFileSync, writeFileSync } = require('node:fs');
const [version, date, since, log] = process.argv.slice(2);
const text = readFileSync('CHANGELOG.md', 'utf8');
const at = text.indexOf('\n## Unreleased\n');
if (at < 0) throw new Error('CHANGELOG.md has no "## Unreleased" section');
const bodyStart = at + '\n## Unreleased\n'.length;
const next = text.indexOf('\n## ', bodyStart);
const body = text.slice(bodyStart, next < 0 ? text.length : next).trim();
const section = body || `<!-- The commits since ${since}: edit into what changes for users. -->\n\n${log}`;
const rest = next < 0 ? '' : text.slice(next);
writeFileSync('CHANGELOG.md', `${text.slice(0, at)}\n## Unreleased\n\n## ${version} - ${date}\n\n${section}\n${rest}`);
console.log(`  CHANGELOG.md: section ${version} - ${date} from ${body ? 'the Unreleased text' : `the commits since ${since}`}`);
JS
fi

if [ $build = 1 ]; then
  say "build: every layer and all ${#PLATFORMS[@]} platform packages"
  SNOWMINT_CROSS=all bash "$ROOT/scripts/build.sh"
fi

out="$ROOT/tmp/release/$VERSION"
rm -rf "$out" && mkdir -p "$out"
say "npm pack into ${out#"$ROOT"/}"
for p in "${PLATFORMS[@]}"; do
  [ -f "npm/platforms/$p/snowmint.$p.node" ] || { echo "npm/platforms/$p has no snowmint.$p.node: build it (SNOWMINT_CROSS=all scripts/build.sh)" >&2; exit 1; }
done
for dir in "${PLATFORMS[@]/#/npm/platforms/}" npm; do
  (cd "$dir" && npm pack --silent --json --pack-destination "$out") >"$out/$(basename "$dir").pack.json"
done
node - "$out" "$VERSION" "${PLATFORMS[@]}" <<'JS'
// What each tarball holds, from npm pack's own listing: the right name and
// version, both licences, a platform package's binary, no test, no source
// map that points at sources the package lacks.
const { readFileSync } = require('node:fs');
const [out, version, ...platforms] = process.argv.slice(2);
const problems = [];
for (const dir of [...platforms, 'npm']) {
  const [pack] = JSON.parse(readFileSync(`${out}/${dir}.pack.json`, 'utf8'));
  const files = new Set(pack.files.map((f) => f.path));
  const want = dir === 'npm' ? 'snowmint' : `snowmint-${dir}`;
  if (pack.name !== want || pack.version !== version) problems.push(`${dir}: packed ${pack.name}@${pack.version}, want ${want}@${version}`);
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE', 'package.json', 'README.md']) if (dir !== 'npm' || f !== 'README.md') if (!files.has(f)) problems.push(`${pack.name}: no ${f}`);
  if (dir !== 'npm' && !files.has(`snowmint.${dir}.node`)) problems.push(`${pack.name}: no snowmint.${dir}.node`);
  if (dir !== 'npm' && [...files].some((f) => f.endsWith('.node') && f !== `snowmint.${dir}.node`)) problems.push(`${pack.name}: another platform's binary`);
  for (const f of files) {
    if (/(^|\/)(tests?|__tests__|fixtures)\//.test(f) || /\.(test|spec)\.[cm]?[jt]s$/.test(f)) problems.push(`${pack.name}: ships a test, ${f}`);
    if (f.endsWith('.map')) problems.push(`${pack.name}: ships a source map, ${f}, and no map is meant to ship (the sources ship as they are)`);
    if (/(^|\/)\.|\.tgz$|\.tmp$|\.orig$|~$/.test(f)) problems.push(`${pack.name}: ships ${f}`);
  }
  if (dir === 'npm' && [...files].some((f) => f.endsWith('.node'))) problems.push('snowmint: ships a native binary (they belong in the platform packages)');
  console.log(`  ${pack.filename}: ${pack.entryCount} files, ${pack.size} bytes packed, ${pack.unpackedSize} installed`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
JS
(cd "$out" && sha256sum ./*.tgz | sed 's# \./# #' >SHA256SUMS)

say "publint --strict, each tarball"
for tgz in "$out"/*.tgz; do
  publint --strict "$tgz" | sed 's/^/  /'
done
say "attw: the types every resolution finds (profile node16: node16 CommonJS and ESM, bundler)"
attw "$out/snowmint-$VERSION.tgz" --profile node16 --format table-flipped --no-color --no-summary
# Cargo verifies each crate against the others through a local overlay
# registry, and unpacks them under $CARGO_HOME/registry/src/-<hash>/, the hash
# fixed by the target directory. An unpacked copy is never refreshed, so a
# second run at the same version (a prerelease retried, CI in the same path)
# would compile against the previous run's sources. Remove those copies.
forget_unpacked() {
  local c
  for c in "${CRATES[@]}"; do rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$c-$VERSION"; done
}
say "cargo publish --dry-run: ${CRATES[*]}"
forget_unpacked
if ! cargo publish --dry-run --allow-dirty $(printf -- '-p %s ' "${CRATES[@]}") >"$out/cargo-publish.log" 2>&1; then
  cat "$out/cargo-publish.log" >&2
  echo "cargo publish --dry-run failed" >&2
  exit 1
fi
grep -E '^ *(Packaged|Verifying|Uploading|warning)' "$out/cargo-publish.log" | sed 's/^ */  /' || true

say "package sizes: README.md and docs/platforms.md (generated regions)"
node - "$out" "${PLATFORMS[@]}" <<'JS'
const { readFileSync, writeFileSync } = require('node:fs');
const [out, ...platforms] = process.argv.slice(2);
const pack = (dir) => JSON.parse(readFileSync(`${out}/${dir}.pack.json`, 'utf8'))[0];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const main = pack('npm');
const rows = [['`snowmint` (JS, types, wasm build, no native binary)', main], ...platforms.map((p) => [`\`snowmint-${p}\``, pack(p)])];
const table = ['| package | packed | installed |', '|---|---:|---:|', ...rows.map(([name, p]) => `| ${name} | ${kb(p.size)} | ${kb(p.unpackedSize)} |`)].join('\n');
const gnu = pack('linux-x64-gnu');
const line = `An install downloads two packages: \`snowmint\`, ${kb(main.size)} packed, and one platform package, ${kb(gnu.size)} for Linux x64 glibc (every size: [docs/platforms.md](docs/platforms.md)).`;
const region = (file, name, text) => {
  const src = readFileSync(file, 'utf8');
  const re = new RegExp(`(<!-- ${name}: generated by scripts/release.sh -->\\n)[\\s\\S]*?(\\n<!-- /${name} -->)`);
  if (!re.test(src)) throw new Error(`${file} has no region <!-- ${name}: generated by scripts/release.sh --> ... <!-- /${name} -->`);
  writeFileSync(file, src.replace(re, (_, a, b) => `${a}${text}${b}`));
  console.log(`  ${file}`);
};
region('README.md', 'package-sizes', line);
region('docs/platforms.md', 'package-sizes', table);
JS

if [ $publish = 0 ]; then
  say "dry run: nothing published (--publish publishes to NPM_REGISTRY and CARGO_REGISTRY); tarballs in ${out#"$ROOT"/}"
  exit 0
fi

tag=latest
[ $prerelease = 1 ] && tag=next
say "npm publish to $NPM_REGISTRY (dist-tag $tag): the platform packages first, then snowmint"
if [ -n "${NPM_TOKEN:-}" ]; then
  npmrc="$out/.npmrc"
  printf '//%s:_authToken=${NPM_TOKEN}\n' "$(sed -E 's#^https?://##; s#/*$#/#' <<<"$NPM_REGISTRY")" >"$npmrc"
  export NPM_CONFIG_USERCONFIG="$npmrc"
fi
for dir in "${PLATFORMS[@]}" npm; do
  name=$([ "$dir" = npm ] && echo snowmint || echo "snowmint-$dir")
  if [ "$(npm view "$name@$VERSION" version --registry "$NPM_REGISTRY" 2>/dev/null)" = "$VERSION" ]; then
    echo "  $name@$VERSION is already there"
    continue
  fi
  # ./ and not a bare NAME.tgz, which npm reads as a GitHub shorthand.
  (cd "$out" && npm publish "./$name-$VERSION.tgz" --registry "$NPM_REGISTRY" --tag "$tag" --access public "${provenance[@]}" --loglevel=warn) >/dev/null
  echo "  $name@$VERSION"
done

if [ "$CARGO_REGISTRY" = none ]; then
  say "CARGO_REGISTRY=none: no crate published"
  exit 0
fi
case $CARGO_REGISTRY in
  crates-io) registry=() ;;
  *://*) registry=(--index "$CARGO_REGISTRY") ;;
  *) registry=(--registry "$CARGO_REGISTRY") ;;
esac
say "cargo publish to $CARGO_REGISTRY: ${CRATES[*]}"
forget_unpacked
cargo publish --allow-dirty "${registry[@]}" $(printf -- '-p %s ' "${CRATES[@]}")

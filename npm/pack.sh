#!/usr/bin/env bash
# npm/pack.sh DIST_DIR OUT_DIR: the npm packages, from GoReleaser's
# archives in DIST_DIR, as tarballs in OUT_DIR.
#
# One package per platform (@mcpeek/linux-x64, …), its binary inside and
# "os"/"cpu" saying where it fits, and the package `mcpeek`, whose
# optionalDependencies name them all at its own version, so npm installs
# the one that fits and nothing is downloaded afterwards (esbuild's way).
# Every archive found is packed; the version is the archives'.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: npm/pack.sh DIST_DIR OUT_DIR" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
dist="$(cd "$1" && pwd)"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# GoReleaser's os and arch as Node names them (process.platform, .arch).
node_os() { case "$1" in windows) echo win32 ;; *) echo "$1" ;; esac; }
node_cpu() { case "$1" in amd64) echo x64 ;; *) echo "$1" ;; esac; }

version=""
platforms=()
shopt -s nullglob
for archive in "$dist"/mcpeek_*_*_*.tar.gz "$dist"/mcpeek_*_*_*.zip; do
  name="$(basename "$archive")"
  name="${name%.tar.gz}"
  name="${name%.zip}"
  # mcpeek_VERSION_OS_ARCH; VERSION may itself hold underscores? It does not
  # (semver), so the last two fields are the platform.
  arch="${name##*_}"
  rest="${name%_*}"
  goos="${rest##*_}"
  v="${rest%_*}"
  v="${v#mcpeek_}"
  if [ -n "$version" ] && [ "$v" != "$version" ]; then
    echo "npm/pack.sh: archives of two versions in $dist: $version and $v" >&2
    exit 1
  fi
  version="$v"
  os="$(node_os "$goos")"
  cpu="$(node_cpu "$arch")"
  exe=mcpeek
  [ "$os" = win32 ] && exe=mcpeek.exe

  pkg="$work/$os-$cpu"
  mkdir -p "$pkg/bin" "$pkg/x"
  case "$archive" in
  *.zip) unzip -q "$archive" -d "$pkg/x" ;;
  *) tar -xzf "$archive" -C "$pkg/x" ;;
  esac
  mv "$pkg/x/$exe" "$pkg/bin/$exe"
  chmod 755 "$pkg/bin/$exe"
  cp "$pkg/x/LICENSE" "$pkg/LICENSE"
  rm -rf "$pkg/x"
  cat >"$pkg/README.md" <<MD
# @mcpeek/$os-$cpu

The mcpeek binary for $os ($cpu). Install the package \`mcpeek\`, which
picks the package that fits the machine; this one is not meant to be
installed by itself.
MD
  cat >"$pkg/package.json" <<JSON
{
  "name": "@mcpeek/$os-$cpu",
  "version": "$version",
  "description": "The mcpeek binary for $os $cpu",
  "license": "MIT",
  "homepage": "https://github.com/mcpeek/mcpeek",
  "repository": {"type": "git", "url": "git+https://github.com/mcpeek/mcpeek.git"},
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/$exe"],
  "preferUnplugged": true
}
JSON
  platforms+=("$os-$cpu")
done

if [ ${#platforms[@]} -eq 0 ]; then
  echo "npm/pack.sh: no mcpeek_VERSION_OS_ARCH archives in $dist" >&2
  exit 1
fi

main="$work/mcpeek"
mkdir -p "$main/bin"
cp "$here/mcpeek/bin/mcpeek.js" "$main/bin/mcpeek.js"
chmod 755 "$main/bin/mcpeek.js"
cp "$root/README.md" "$root/LICENSE" "$main/"
# The template's version, its platforms and its optionalDependencies are
# the archives'.
node - "$here/mcpeek/package.json" "$main/package.json" "$version" "${platforms[@]}" <<'JS'
const fs = require("node:fs");
const [template, target, version, ...platforms] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(template, "utf8"));
pkg.version = version;
pkg.mcpeek.platforms = platforms;
pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [`@mcpeek/${p}`, version]));
fs.writeFileSync(target, JSON.stringify(pkg, null, 2) + "\n");
JS

for dir in "${platforms[@]}" mcpeek; do
  (cd "$out" && npm pack --silent --pack-destination "$out" "$work/$dir" >/dev/null)
done
echo "npm/pack.sh: mcpeek $version for ${platforms[*]} in $out"

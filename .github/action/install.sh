#!/usr/bin/env bash
# Installs mcpeek from a release archive for action.yml: the archive for
# this machine's platform, checked against the release's checksums.txt,
# unpacked into MCPEEK_INSTALL_DIR, which is added to GITHUB_PATH.
#
# MCPEEK_VERSION       v1.4.0, 1.4.0 or latest
# MCPEEK_INSTALL_DIR   where mcpeek goes; an mcpeek already there (the
#                      action's cache) is used as it is
# MCPEEK_ARCHIVE_DIR   a folder holding checksums.txt and the archives, read
#                      instead of downloading (CI checks the action so,
#                      against a snapshot build)
# MCPEEK_RELEASES_URL  default https://github.com/mcpeek/mcpeek/releases
set -euo pipefail

fail() { echo "::error title=mcpeek install::$*" >&2; exit 1; }

version="${MCPEEK_VERSION:-latest}"
install_dir="${MCPEEK_INSTALL_DIR:?MCPEEK_INSTALL_DIR is not set}"
releases="${MCPEEK_RELEASES_URL:-https://github.com/mcpeek/mcpeek/releases}"

case "$(uname -s)" in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
*) fail "no mcpeek release for the OS $(uname -s)" ;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no mcpeek release for the CPU $(uname -m)" ;;
esac
exe=mcpeek
ext=tar.gz
if [ "$os" = windows ]; then exe=mcpeek.exe ext=zip; fi

if [ -x "$install_dir/$exe" ]; then
  echo "mcpeek from the cache: $install_dir"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # fetch NAME: the release's file NAME into $work.
  fetch() {
    if [ -n "${MCPEEK_ARCHIVE_DIR:-}" ]; then
      cp "$MCPEEK_ARCHIVE_DIR/$1" "$work/$1" || fail "no $1 in $MCPEEK_ARCHIVE_DIR"
    elif [ "$version" = latest ]; then
      curl -fsSL --retry 3 -o "$work/$1" "$releases/latest/download/$1" || fail "cannot download $1 of the latest release"
    else
      curl -fsSL --retry 3 -o "$work/$1" "$releases/download/v${version#v}/$1" || fail "cannot download $1 of mcpeek v${version#v}"
    fi
  }
  fetch checksums.txt
  # The archive's name holds the version, so checksums.txt names it even
  # for "latest": mcpeek_VERSION_OS_ARCH.EXT.
  line="$(grep -E "^[0-9a-f]{64}  mcpeek_[^ ]+_${os}_${arch}\.${ext}\$" "$work/checksums.txt" || true)"
  [ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] || fail "checksums.txt names no single archive for ${os}_${arch}"
  want="${line%% *}"
  archive="${line##* }"
  fetch "$archive"
  if command -v sha256sum >/dev/null; then
    got="$(sha256sum "$work/$archive")"
  else
    got="$(shasum -a 256 "$work/$archive")"
  fi
  got="${got%% *}"
  [ "$got" = "$want" ] || fail "$archive does not match checksums.txt (sha256 $got, want $want)"
  mkdir -p "$install_dir"
  case "$ext" in
  zip) unzip -qo "$work/$archive" -d "$install_dir" ;;
  *) tar -xzf "$work/$archive" -C "$install_dir" ;;
  esac
  echo "mcpeek: $archive, checked against checksums.txt"
fi

if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$install_dir" >>"$GITHUB_PATH"
fi
"$install_dir/$exe" --version

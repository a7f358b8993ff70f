#!/bin/sh
# Installs the `radar` binary from a GitHub release: detects the platform, downloads the binary
# and the release's SHA256SUMS, verifies the sum and places the binary in ~/.local/bin.
#
#   curl -fsSL https://github.com/radar-assistant/radar/releases/latest/download/install.sh | sh
#
# Settings (environment):
#   RADAR_VERSION      a release tag such as v0.2.0 (default: the latest release)
#   RADAR_INSTALL_DIR  where `radar` goes (default: ~/.local/bin)
#   RADAR_DOWNLOAD_URL the releases address (default: https://github.com/radar-assistant/radar/releases)
# Exit codes: 0 installed, 1 download or verification failed (nothing installed), 2 unsupported
# platform or bad setting.
set -eu

repository="radar-assistant/radar"
releases="${RADAR_DOWNLOAD_URL:-https://github.com/$repository/releases}"
version="${RADAR_VERSION:-latest}"
install_dir="${RADAR_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}"

fail() {
  echo "install.sh: $2" >&2
  exit "$1"
}

# The release asset for this machine (the targets of `deno task compile`).
platform() {
  system="$(uname -s)"
  machine="$(uname -m)"
  if [ "$system" = "Darwin" ] && [ "$machine" = "x86_64" ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = "1" ]; then
    machine="arm64" # a Rosetta shell on Apple silicon: the native binary is the right one
  fi
  case "$system/$machine" in
  Darwin/arm64 | Darwin/aarch64) echo "aarch64-apple-darwin" ;;
  Darwin/x86_64) echo "x86_64-apple-darwin" ;;
  Linux/x86_64 | Linux/amd64) echo "x86_64-unknown-linux-gnu" ;;
  *)
    fail 2 "no Radar binary for $system $machine (there are binaries for macOS arm64 and x86_64 and Linux x86_64); run it from source instead: see the README"
    ;;
  esac
}

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 --connect-timeout 10 -o "$2" "$1" 2>/dev/null
  elif command -v wget >/dev/null 2>&1; then
    wget -q -T 10 -O "$2" "$1"
  else
    fail 1 "neither curl nor wget is installed"
  fi
}

sha256() { # FILE
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
  fi
}

case "$version" in
latest) base="$releases/latest/download" ;;
v[0-9]*) base="$releases/download/$version" ;;
*) fail 2 "RADAR_VERSION must be a release tag such as v0.2.0 (or unset for the latest), not \"$version\"" ;;
esac

target="$(platform)"
asset="radar-$target"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT INT TERM

download "$base/SHA256SUMS" "$work/SHA256SUMS" ||
  fail 1 "cannot download $base/SHA256SUMS (offline, or no such release?)"
download "$base/$asset" "$work/$asset" ||
  fail 1 "cannot download $base/$asset (offline, or no such release?)"

expected="$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$work/SHA256SUMS")"
[ -n "$expected" ] || fail 1 "SHA256SUMS of the release has no line for $asset; nothing installed"
actual="$(sha256 "$work/$asset")"
[ "$expected" = "$actual" ] ||
  fail 1 "the SHA-256 sum of $asset is $actual, the release says $expected; nothing installed (try again; if it persists, report it)"

mkdir -p "$install_dir" || fail 1 "cannot create $install_dir"
chmod 755 "$work/$asset"
# Moved in whole: a running radar keeps its old file, and nobody sees half a binary.
cp "$work/$asset" "$install_dir/.radar.new" || fail 1 "cannot write to $install_dir"
mv -f "$install_dir/.radar.new" "$install_dir/radar" || fail 1 "cannot write $install_dir/radar"

installed="$("$install_dir/radar" version 2>/dev/null || echo "$version")"
echo "Installed Radar $installed ($target) to $install_dir/radar."
case ":$PATH:" in
*":$install_dir:"*) echo "Next: radar status   (then: radar start)" ;;
*)
  echo "$install_dir is not on your PATH: add  export PATH=\"$install_dir:\$PATH\"  to your shell's profile."
  echo "Next: $install_dir/radar status   (then: $install_dir/radar start)"
  ;;
esac

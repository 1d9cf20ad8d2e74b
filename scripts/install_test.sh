#!/usr/bin/env bash
# The four ways a C++ user consumes docket (docs/packaging.md), each building the one
# consumer tests/install/consumer/main.cc and running it (it opens a real SQLite inbox,
# dispatches a message, redelivers it and checks what committed):
#   cmake        `cmake --install <build>` into a throwaway prefix, then
#                find_package(docket CONFIG COMPONENTS stores sqlite) (tests/install/consumer),
#                the component checks (tests/install/components) and the installed tool;
#   pkgconfig    the same prefix through pkg-config alone (tests/install/pkgconfig/Makefile);
#   deb          `dpkg-buildpackage -b -us -uc` on a copy of the source, `dpkg -i` of
#                libdocket-dev and docket-tools into this machine (removed again on exit),
#                then the consumer with find_package from /usr, and /usr/bin/docket;
#   subdirectory the consumer with this source tree added by add_subdirectory()
#                (tests/install/subdirectory), compiling the docket libraries it links;
#   libraries    the README's libraries-only build (no tool, no suite; the providers and
#                brokers the consumer does not use left out), installed, then the
#                consumer with find_package against it.
# Prints how long each way took.
#
# Usage: scripts/install_test.sh [<build tree>]   (default: build, already built)
#   DOCKET_INSTALL_WAYS="cmake pkgconfig deb subdirectory libraries"   the ways to run (all)
#   DOCKET_DEB_FRESH=1   compile the Debian package from the source, as a user's
#                        dpkg-buildpackage does, instead of packaging <build tree>'s
#                        libraries and tool (debian/rules, DOCKET_DEB_BUILD_DIR): `make
#                        test` has just built and tested that tree, and compiling it a
#                        second time would add minutes to CI for the same binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
source=$PWD
build=$(realpath "${1:-build}")
ways=${DOCKET_INSTALL_WAYS:-cmake pkgconfig deb subdirectory libraries}
jobs=${JOBS:-$(nproc)}
work=$(mktemp -d)
installed_debs=()
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
cleanup() {
  if [ ${#installed_debs[@]} -gt 0 ]; then
    $sudo dpkg -r "${installed_debs[@]}" >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "install_test: $*" >&2
  exit 1
}
timed() {
  local way=$1 start=$SECONDS
  shift
  printf '\n--> %s\n' "$way"
  "$@"
  printf -- '--> %s: %ds\n' "$way" $((SECONDS - start))
}

# Runs a command with its output in $work/<log>.log, shown only when it fails (a
# compiler's warnings about docket's sources are the release build's to show).
quietly() {
  local log=$work/$1.log
  shift
  "$@" >"$log" 2>&1 || { tail -n 40 "$log" >&2; fail "failed: $*"; }
}

# The installed tool prints the Firestore inbox reference vector.
check_tool() {
  local expected="inbox:acme:corp_42:MyApp.Handlers.OrderHandler" got
  got=$("$1" keys inbox --provider firestore --tenant acme --message-id corp_42 \
    --handler MyApp.Handlers.OrderHandler)
  [ "$got" = "$expected" ] || fail "$1 printed '$got', expected '$expected'"
  echo "installed docket ($1): $got"
}

# The consumer's CMake build against whatever docket find_package finds ($@: extra
# configure arguments), then its run.
cmake_consumer() {
  local dir=$1
  shift
  quietly "$(basename "$dir")-configure" cmake -S tests/install/consumer -B "$dir" "$@"
  quietly "$(basename "$dir")-build" cmake --build "$dir" -j "$jobs"
  "$dir/consumer"
}

prefix=$work/prefix
install_prefix() {
  if [ ! -d "$prefix" ]; then
    run_tree_builds_every_library
    quietly install cmake --install "$build" --prefix "$prefix"
  fi
}

# `cmake --install` works on the tree `make run` builds (the tool alone): building the
# tool builds every library installed beside it. The libraries the tool does not link
# are removed from the tree, then the tool's target alone must bring them back (their
# objects are there: this re-archives, it compiles nothing).
run_tree_builds_every_library() {
  local lib libs missing=()
  mapfile -t libs < <(find "$build" -name 'libdocket_sagas.a' -o -name 'libdocket_projections.a')
  [ ${#libs[@]} -gt 0 ] || fail "no libdocket_sagas.a or libdocket_projections.a in $build"
  rm -f "${libs[@]}"
  quietly run-tree cmake --build "$build" -j "$jobs" --target docket
  for lib in "${libs[@]}"; do
    [ -f "$lib" ] || missing+=("$lib")
  done
  [ ${#missing[@]} -eq 0 ] || fail "building the tool (make run) did not build ${missing[*]}"
  echo "the tool's target builds every installed library (cmake --install after make run)"
}

way_cmake() {
  install_prefix
  cmake_consumer "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix"
  quietly components cmake -S tests/install/components -B "$work/components" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCHECK=sqlite_alone
  local refusal
  if refusal=$(cmake -S tests/install/components -B "$work/missing" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCHECK=missing 2>&1); then
    fail "find_package(docket COMPONENTS no_such_store) succeeded"
  fi
  refusal=$(tr -s ' \n' ' ' <<<"$refusal")
  [[ "$refusal" == *"lacks the requested component(s) no_such_store; it has: core,"* ]] ||
    fail "find_package(docket COMPONENTS no_such_store) failed without naming it and the" \
      "components there are: $refusal"
  echo "components: sqlite alone loads no other provider; a missing one is named"
  if [ -x "$prefix/bin/docket" ]; then
    check_tool "$prefix/bin/docket"
  fi
}

way_pkgconfig() {
  install_prefix
  local libdir
  libdir=$(dirname "$(find "$prefix" -name docket-core.pc -print -quit)")
  PKG_CONFIG_PATH="$libdir" quietly pkgconfig make -f tests/install/pkgconfig/Makefile OUT="$work"
  echo "pkg-config --libs docket-sqlite: $(PKG_CONFIG_PATH="$libdir" pkg-config --libs docket-sqlite)"
  "$work/consumer"
}

way_deb() {
  # A copy of the tracked and new (not ignored) files: dpkg-buildpackage writes into
  # debian/ and the .debs beside the source folder.
  local copy=$work/deb/docket
  mkdir -p "$copy"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    if [ -e "$file" ]; then printf '%s\0' "$file"; fi
  done | tar --null -T - -cf - | tar -xf - -C "$copy"
  local reuse=()
  if [ "${DOCKET_DEB_FRESH:-0}" != 1 ]; then
    reuse=(DOCKET_DEB_BUILD_DIR="$build")
  fi
  (cd "$copy" && quietly dpkg-buildpackage env "${reuse[@]}" \
    DEB_BUILD_OPTIONS="parallel=$jobs nocheck" dpkg-buildpackage -b -us -uc)
  local debs=("$work"/deb/libdocket-dev_*.deb "$work"/deb/docket-tools_*.deb)
  ls -l "${debs[@]}" | awk '{print $5, $NF}'
  installed_debs=(docket-tools libdocket-dev)
  $sudo dpkg -i "${debs[@]}" >/dev/null
  cmake_consumer "$work/deb-consumer"
  grep -q "docket_DIR:PATH=/usr/" "$work/deb-consumer/CMakeCache.txt" ||
    fail "the consumer did not find docket under /usr: $(grep docket_DIR "$work/deb-consumer/CMakeCache.txt")"
  pkg-config --exists docket-sqlite ||
    fail "pkg-config does not find docket-sqlite.pc from the installed libdocket-dev"
  check_tool /usr/bin/docket
}

way_subdirectory() {
  quietly subdirectory-configure cmake -S tests/install/subdirectory -B "$work/subdirectory" \
    -DDOCKET_SOURCE_DIR="$source" -DCMAKE_BUILD_TYPE=Release
  quietly subdirectory-build cmake --build "$work/subdirectory" -j "$jobs"
  "$work/subdirectory/consumer"
}

# The libraries-only build the README shows (no tool, no suite), its install and the
# consumer against it. The providers and brokers the consumer does not use are left out,
# as such a build would, which also keeps this way's compile short.
way_libraries() {
  local tree=$work/libraries libraries_prefix=$work/libraries-prefix
  quietly libraries-configure cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release \
    -DDOCKET_BUILD_TOOL=OFF -DDOCKET_BUILD_TESTS=OFF -DDOCKET_PROMETHEUS=OFF \
    -DDOCKET_PROVIDER_POSTGRES=OFF -DDOCKET_PROVIDER_DYNAMODB=OFF \
    -DDOCKET_PROVIDER_FIRESTORE=OFF -DDOCKET_PROVIDER_REDIS=OFF -DDOCKET_PROVIDER_COSMOS=OFF \
    -DDOCKET_TRANSPORT_RABBITMQ=OFF -DDOCKET_TRANSPORT_NATS=OFF -DDOCKET_TRANSPORT_PUBSUB=OFF \
    -DDOCKET_TRANSPORT_REDIS=OFF
  quietly libraries-build cmake --build "$tree" -j "$jobs" --target docket_installable
  quietly libraries-install cmake --install "$tree" --prefix "$libraries_prefix"
  [ ! -e "$libraries_prefix/bin/docket" ] || fail "a libraries-only build installed the tool"
  cmake_consumer "$work/libraries-consumer" -DCMAKE_PREFIX_PATH="$libraries_prefix"
}

for way in $ways; do
  case $way in
    cmake | pkgconfig | deb | subdirectory | libraries) timed "$way" "way_$way" ;;
    *) fail "unknown way '$way' (cmake, pkgconfig, deb, subdirectory, libraries)" ;;
  esac
done

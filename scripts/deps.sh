#!/usr/bin/env bash
# Installs what docket needs to build and test, from Debian 12 packages (npm packages
# for the test servers: scripts/dynamodb-install.sh, scripts/cosmos-install.sh), and the Cloud Firestore emulator
# from Google's apt repository, which the machines that build docket have configured.
# Idempotent: asks apt only for what is missing, and runs `apt-get update` only then.
set -euo pipefail

packages=(
  build-essential cmake make pkg-config git debhelper
  clang lld libclang-rt-14-dev clang-format
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev
  libsqlite3-dev libpq-dev postgresql
  libcurl4-openssl-dev libssl-dev prometheus-cpp-dev
  libcivetweb-dev chromium
  librabbitmq-dev rabbitmq-server
  libnats-dev nats-server
  libhiredis-dev redis-server
  openjdk-17-jre-headless nodejs npm curl openssl
  google-cloud-cli-firestore-emulator
  google-cloud-cli-pubsub-emulator
)

# Packages that come from Google's apt repository, not Debian's.
google_packages=(google-cloud-cli-firestore-emulator google-cloud-cli-pubsub-emulator)

# True when package $1 is installed. npm also counts as installed when an npm command
# exists: a nodejs package from outside Debian (NodeSource's) ships npm itself and
# conflicts with Debian's npm package.
installed() {
  if [ "$1" = npm ] && command -v npm >/dev/null; then
    return 0
  fi
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for p in "${packages[@]}"; do
  if ! installed "$p"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "docket: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
for p in "${google_packages[@]}"; do
  if [[ " ${missing[*]} " == *" $p "* ]] && [ -z "$(apt-cache policy "$p" 2>/dev/null)" ]; then
    echo "docket: apt cannot find the package $p: it comes from Google's apt repository" \
      "(https://packages.cloud.google.com/apt, suite cloud-sdk); configure that repository" \
      "(see https://cloud.google.com/sdk/docs/install#deb) and run scripts/deps.sh again" >&2
    exit 1
  fi
done
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

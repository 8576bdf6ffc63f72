#!/usr/bin/env bash
# Builds the web page into web/dist/: static files any server can serve.
#   web/build.sh            (needs the wasm32-unknown-unknown target and wasm-bindgen-cli
#                            at the version Cargo.lock pins; .ci/run installs both)
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if ! wasm-bindgen --version 2>/dev/null | grep -q " $version\$"; then
  echo "web/build.sh: wasm-bindgen $version is needed:" >&2
  echo "  rustup target add wasm32-unknown-unknown && cargo install wasm-bindgen-cli --version =$version --locked" >&2
  exit 1
fi

cargo build -p ttt-web --target wasm32-unknown-unknown --profile web
rm -rf web/dist
mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist \
  target/wasm32-unknown-unknown/web/ttt_web.wasm
cp web/index.html web/style.css web/worker.js web/dist/
echo "web/dist:"
for file in web/dist/*; do
  printf '  %-24s %8d bytes\n' "$(basename "$file")" "$(stat -c %s "$file")"
done
printf '  %-24s %8d bytes\n' total "$(cat web/dist/* | wc -c)"

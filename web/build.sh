#!/usr/bin/env bash
# Builds the web page into web/dist/: static files any server can serve.
#   web/build.sh            (needs the wasm32-unknown-unknown target and wasm-bindgen-cli
#                            at the version Cargo.lock pins, and shrinks the wasm with
#                            binaryen's wasm-opt where it is installed; .ci/run installs
#                            all three)
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
wasm=web/dist/ttt_web_bg.wasm
if command -v wasm-opt >/dev/null 2>&1; then
  before=$(stat -c %s "$wasm")
  # The features Rust's wasm32 target turns on by default.
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  echo "wasm-opt -Oz: $before -> $(stat -c %s "$wasm") bytes"
else
  echo "web/build.sh: wasm-opt (binaryen) is not installed: the wasm is left as wasm-bindgen wrote it" >&2
fi
cp web/index.html web/style.css web/worker.js web/icon.svg web/manifest.webmanifest web/dist/
# The service worker keeps this build's files under the build's own name.
build=$(cat web/dist/* | sha256sum | cut -c1-16)
sed "s/^const version = \"BUILD\";/const version = \"ttt-$build\";/" web/sw.js > web/dist/sw.js
echo "web/dist:"
for file in web/dist/*; do
  printf '  %-24s %8d bytes\n' "$(basename "$file")" "$(stat -c %s "$file")"
done
printf '  %-24s %8d bytes\n' total "$(cat web/dist/* | wc -c)"

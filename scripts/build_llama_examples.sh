#!/usr/bin/env bash
# Build llama.cpp's own llama-batched and llama-batched-bench from the sources vendored in the
# llama-cpp-python sdist, with the same flags as scripts/setup, into a cache folder (nothing
# built is committed). scripts/bench_sampling.py reports llama-batched-bench's S_TG beside ours.
#
#   scripts/build_llama_examples.sh        # prints the folder holding the binaries
set -euo pipefail
VERSION="${LLAMA_VERSION:-0.3.36}"
CACHE="${VIBECODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vibecode}/llama-examples/$VERSION"
BIN="$CACHE/build/bin"
if [ -x "$BIN/llama-batched-bench" ] && [ -x "$BIN/llama-batched" ]; then
  echo "$BIN"; exit 0
fi
CMAKE_ARGS="$("$(dirname "$0")/llama-cmake-args" 2>/dev/null)"
mkdir -p "$CACHE"
cd "$CACHE"
if [ ! -d src ]; then
  python3 -m pip download --quiet --no-deps --no-binary :all: -d sdist "llama-cpp-python==$VERSION" >&2
  mkdir -p src && tar -xzf sdist/llama_cpp_python-"$VERSION".tar.gz -C src --strip-components=1
fi
# shellcheck disable=SC2086
cmake -S src/vendor/llama.cpp -B build -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_EXAMPLES=ON \
  -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF \
  $CMAKE_ARGS >&2
cmake --build build --target llama-batched llama-batched-bench -j "$(nproc 2>/dev/null || echo 2)" >&2
echo "$BIN"

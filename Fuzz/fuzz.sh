#!/usr/bin/env bash
# Builds and runs the libFuzzer target over the scene decoder and render path (issue 7).
#
#   Fuzz/fuzz.sh build             # build Fuzz/.build/origami-fuzz (libFuzzer + AddressSanitizer)
#   Fuzz/fuzz.sh run [args…]       # build, then fuzz from the seed corpus; extra args go to libFuzzer,
#                                  # e.g. -runs=1000000, -max_total_time=600, -jobs=2
#   Fuzz/fuzz.sh regress           # replay Fuzz/crashes/* (every crash ever found); fails if one still crashes
#
# The package's libraries are built by SwiftPM with coverage instrumentation (-sanitize=fuzzer) and
# AddressSanitizer in .build-fuzz; the target (SceneFuzzer.swift) is then compiled and linked against their
# objects with `swiftc -sanitize=fuzzer,address -parse-as-library`. Findings land in Fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=$ROOT/.build-fuzz
OUT=$ROOT/Fuzz/.build
BIN=$OUT/origami-fuzz
CONFIG=${FUZZ_CONFIG:-release}
# Swift's crash reporter would wait on libFuzzer's own handler; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
export ORIGAMI_FUZZ_FIXTURES=$ROOT/Fuzz/fixtures
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0}

build() {
  swift build --scratch-path "$SCRATCH" -c "$CONFIG" --sanitize=address -Xswiftc -sanitize=fuzzer \
    --target OrigamiScene >&2
  local objects=()
  for t in Origami OrigamiRender OrigamiScene Yams CYaml; do
    while IFS= read -r o; do objects+=("$o"); done < <(find "$SCRATCH/$CONFIG/$t.build" -name '*.o')
  done
  mkdir -p "$OUT"
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer,address -parse-as-library $( [ "$CONFIG" = release ] && echo -O ) \
    -I "$SCRATCH/$CONFIG/Modules" -I "$ROOT/Sources/CCairo" -I "$SCRATCH/checkouts/Yams/Sources/CYaml/include" $(pkg-config --cflags cairo | sed 's/-I/-Xcc -I/g') \
    "$ROOT/Fuzz/SceneFuzzer.swift" "${objects[@]}" $(pkg-config --libs cairo) -lpng16 \
    -o "$BIN" 2> >(grep -v "Cannot export local symbol" >&2)
  echo "built $BIN" >&2
}

case "${1:-run}" in
  build) build ;;
  run)
    shift || true
    build
    mkdir -p "$ROOT/Fuzz/findings" "$ROOT/Fuzz/.build/corpus"
    # New inputs go to the scratch corpus; the seeds in Fuzz/corpus stay as committed.
    "$BIN" -artifact_prefix="$ROOT/Fuzz/findings/" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
      -dict="$ROOT/Fuzz/scene.dict" "$@" "$ROOT/Fuzz/.build/corpus" "$ROOT/Fuzz/corpus"
    ;;
  regress)
    build
    shopt -s nullglob
    inputs=("$ROOT"/Fuzz/crashes/*)
    if [ ${#inputs[@]} -eq 0 ]; then echo "no crash inputs"; exit 0; fi
    "$BIN" -timeout=20 "${inputs[@]}"
    echo "replayed ${#inputs[@]} crash inputs: none crashes"
    ;;
  *) echo "usage: $0 build|run [libFuzzer args]|regress" >&2; exit 2 ;;
esac

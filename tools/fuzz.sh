#!/usr/bin/env bash
# Runs every fuzz target (or those named in FUZZ_TARGETS) for FUZZ_SECONDS each, under
# libFuzzer with AddressSanitizer, starting from its seeds in Tests/Fuzz/<target>/. What the
# fuzzer adds to a corpus goes to $FUZZ_DIR/corpus/<target>/ (kept between runs, never in
# git); a crash, a hang (FUZZ_TIMEOUT seconds on one input) or a memory blow-up
# (FUZZ_RSS_MB) leaves its input in $FUZZ_DIR/artifacts/ and makes the run fail, after the
# other targets had their turn. Everything runs with private HOME and XDG folders. FUZZ_JOBS
# targets run at once (1 unless told; libFuzzer uses one core per target): CI gives each of
# its two cores a target, for the same 20 s each in half the time.
#
# Usage: tools/fuzz.sh FUZZER_BINARY FUZZ_DIR      (make fuzz builds the binary and calls this)
set -euo pipefail

binary="$1"
dir="$2"
seconds="${FUZZ_SECONDS:-60}"
rss_mb="${FUZZ_RSS_MB:-2048}"
timeout="${FUZZ_TIMEOUT:-25}"
parallel="${FUZZ_JOBS:-1}"
seeds="$(cd "$(dirname "$0")/.." && pwd)/Tests/Fuzz"
read -r -a targets <<< "${FUZZ_TARGETS:-$("$binary" --list | cut -d' ' -f1 | tr '\n' ' ')}"

home="$dir/home"
rm -rf "$home" "$dir/tmp"
mkdir -p "$home"/{config,data,cache,state,runtime} "$dir/tmp" "$dir/artifacts" "$dir/logs"
chmod 700 "$home/runtime"
export LANG=C.UTF-8 LC_ALL= HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_CACHE_HOME="$home/cache" \
       XDG_STATE_HOME="$home/state" XDG_RUNTIME_DIR="$home/runtime" TMPDIR="$dir/tmp"
# GLib's allocations made once per process are kept in globals, so a leak is a real one, but
# for those tools/fuzz-leaks.supp names. One allocation past 1 GiB fails (returns NULL), as it
# does in a decoder worker under its address-space limit: a library that asks that much for a
# hostile header (GdkPixbuf's BMP loader asks 4 GB) must cope, as it does there, and Swift code
# that does not traps, which the fuzzer reports.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024}"
# A Swift runtime failure goes straight to libFuzzer: Swift's own backtracer, reading the
# crashed process's memory, makes AddressSanitizer report an "unknown-crash" in its place.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")" && pwd)/fuzz-leaks.supp:print_suppressions=0}"

# One target: its log, and its line of the table in $dir/logs/<target>.result.
fuzz_one() {
    local target="$1" corpus="$dir/corpus/$1" log="$dir/logs/$1.log" status=0 options=() result
    mkdir -p "$corpus"
    # GIO reloads its whole application database for each input (a config folder of its
    # own), and its caches make libFuzzer scan the heap for leaks after nearly every one, which
    # slows the target badly. The Swift side (Application) is the desktop-entry target's too,
    # with leak detection.
    [[ "$target" == mimeapps ]] && options+=(-detect_leaks=0)
    "$binary" "$target" "${options[@]}" -max_total_time="$seconds" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" \
        -timeout="$timeout" -print_final_stats=1 -artifact_prefix="$dir/artifacts/$target-" \
        "$corpus" "$seeds/$target" > "$log" 2>&1 || status=$?
    local executions speed units
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    units=$(find "$corpus" -type f | wc -l)
    if ((status == 0)); then
        result=ok
    else
        result="FAILED (exit $status): $(grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|DossierFuzz:' "$log" || echo "see $log")"
    fi
    printf '%-16s %12s %10s %8s  %s\n' "$target" "${executions:-?}" "${speed:-?}" "$units" "$result" > "$dir/logs/$target.result"
}

printf '%-16s %12s %10s %8s  %s\n' target executions "exec/s" corpus result
if ((parallel <= 1)); then
    for target in "${targets[@]}"; do
        fuzz_one "$target"
        cat "$dir/logs/$target.result"
    done
else
    for target in "${targets[@]}"; do
        rm -f "$dir/logs/$target.result"
        while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
        fuzz_one "$target" &
    done
    wait
    for target in "${targets[@]}"; do cat "$dir/logs/$target.result"; done
fi
failed=()
for target in "${targets[@]}"; do
    grep -q '  ok$' "$dir/logs/$target.result" || failed+=("$target")
done

if ((${#failed[@]})); then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]} (inputs in $dir/artifacts, logs in $dir/logs)" >&2
    for target in "${failed[@]}"; do
        echo "---- $target: the end of $dir/logs/$target.log" >&2
        tail -n 40 "$dir/logs/$target.log" >&2
    done
    exit 1
fi

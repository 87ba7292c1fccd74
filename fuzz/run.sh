#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another, starting from the
# committed corpus (fuzz/corpus/<target>, read only) and growing a scratch corpus in
# fuzz/work/<target> (not committed). Crashes are written to fuzz/artifacts/<target>/; copy each
# into fuzz/corpus/<target>/ once fixed, so the replay test (tests/fuzz_corpus.rs) keeps it.
#
# Needs cargo-fuzz (installed here if missing) and libFuzzer's nightly compiler flags, which the
# stable toolchain accepts with RUSTC_BOOTSTRAP=1 (a nightly toolchain works too).
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
mkdir -p work logs
for t in "${targets[@]}"; do
  mkdir -p "work/$t" "corpus/$t"
  echo "== $t: ${seconds}s"
  status=0
  cargo fuzz run -O "$t" "work/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 -print_final_stats=1 \
    >"logs/$t.log" 2>&1 || status=$?
  grep -E "^(Done|stat::number_of_executed_units)" "logs/$t.log" | head -2
  if [ "$status" -ne 0 ]; then
    echo "   FAILED (exit $status): see fuzz/logs/$t.log and fuzz/artifacts/$t/"
    grep -m3 -E "panicked|ERROR|SUMMARY" "logs/$t.log" || true
  fi
done

#!/usr/bin/env bash
# The worked example of bench/anchors/README.md, end to end: makes the inputs, runs obbtree and
# the anchors on them, and checks that their answers agree.
#
# usage: bench/anchors/example.sh [OUT_DIR]        (default target/anchors/example)
#
# Needs the harnesses (bench/anchors/build.sh) and the obbtree program
# (cargo build --release -p obbtree-cli); builds either when it is missing. Every report line is
# also kept in OUT_DIR/summary.jsonl, every per-query answer in OUT_DIR/*.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
bin=${BENCH_OUT:-target/anchors}
out=${1:-target/anchors/example}
obbtree=target/release/obbtree
mkdir -p "$out"
summary=$out/summary.jsonl
: >"$summary"

[ -x "$obbtree" ] || cargo build --release -p obbtree-cli
for program in fcl_bench fcl_scene coal_bench embree_bench; do
  [ -x "$bin/$program" ] || { "$here/build.sh"; break; }
done

# Runs "$@" and keeps its one-line report.
report() { "$@" | tee -a "$summary"; }
# obbtree's --json report without its per-query answers (those go to --out).
brief() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({k: v for k, v in d.items() if k not in ("results", "hits")}))'; }
compare() { echo "== $(basename "$1") against $(basename "$2")"; python3 "$here/results_compare.py" "$@" || true; }

echo "== inputs"
python3 benches/data/ply2obj.py assets/dragon_res3.ply.gz "$out/dragon_res3.obj"
python3 benches/data/ply2obj.py assets/dragon_res2.ply.gz "$out/dragon_res2.obj"
A=$out/dragon_res3.obj
python3 "$here/poses.py" "$A" "$A" 100 1 "$out/poses100.json"
python3 "$here/poses.py" "$A" "$A" 20 1 "$out/poses20.json" # the first 20 of poses100
python3 "$here/near_poses.py" "$A" "$A" "$out/poses20.json" "$out/near20.json" "$obbtree"
python3 "$here/rays.py" "$out/dragon_res2.obj" 10000 7 "$out/rays10k.json"
python3 "$here/scene.py" "$out/scene100" 100 10 0.2 1
python3 "$here/scene.py" "$out/scene100_dense" 100 10 0.2 1 --touch 0.3

echo "== collide: dragon_res3 against itself, 100 poses, one thread"
for mode in all bool; do
  obbtree_mode=$([ $mode = all ] && echo all || echo first)
  RAYON_NUM_THREADS=1 "$obbtree" collide "$A" "$A" --poses "$out/poses100.json" --mode "$obbtree_mode" \
    --json --out "$out/obbtree_collide_$mode.json" | brief | tee -a "$summary"
  for bv in obb obbrss kios; do
    report "$bin/fcl_bench" collide "$A" "$A" "$out/poses100.json" --bv $bv --mode $mode --out "$out/fcl_${bv}_$mode.json"
  done
  for bv in kios obb obbrss; do
    report "$bin/coal_bench" collide "$A" "$A" "$out/poses100.json" --bv $bv --mode $mode --out "$out/coal_${bv}_$mode.json"
  done
done
for engine in fcl_obb fcl_obbrss fcl_kios coal_kios; do
  compare "$out/obbtree_collide_all.json" "$out/${engine}_all.json"
  compare "$out/obbtree_collide_bool.json" "$out/${engine}_bool.json"
done

echo "== distance: dragon_res3, the first 20 poses and their near misses"
for poses in poses20 near20; do
  for bv in rss obbrss kios; do
    report "$bin/fcl_bench" distance "$A" "$A" "$out/$poses.json" --bv $bv --out "$out/fcl_distance_${bv}_$poses.json"
    report "$bin/coal_bench" distance "$A" "$A" "$out/$poses.json" --bv $bv --out "$out/coal_distance_${bv}_$poses.json"
  done
  compare "$out/fcl_distance_obbrss_$poses.json" "$out/coal_distance_obbrss_$poses.json"
done
report "$bin/fcl_bench" distance "$A" "$A" "$out/poses20.json" --bv obbrss --margin 0.001 --out "$out/fcl_margin.json"
report "$bin/coal_bench" distance "$A" "$A" "$out/poses20.json" --bv obbrss --margin 0.001 --out "$out/coal_margin.json"
compare "$out/fcl_margin.json" "$out/coal_margin.json"

echo "== rays: dragon_res2, 10,000 rays, one thread"
RAYON_NUM_THREADS=1 "$obbtree" pick "$out/dragon_res2.obj" --rays "$out/rays10k.json" --json \
  --out "$out/obbtree_hits.json" | brief | tee -a "$summary"
report "$bin/embree_bench" ray "$out/dragon_res2.obj" "$out/rays10k.json" --out "$out/embree_hits.json"
EMBREE_ROBUST=1 report "$bin/embree_bench" ray "$out/dragon_res2.obj" "$out/rays10k.json" --out "$out/embree_robust_hits.json"
compare "$out/obbtree_hits.json" "$out/embree_hits.json" --tol 1e-5
compare "$out/obbtree_hits.json" "$out/embree_robust_hits.json" --tol 1e-5

for scene in scene100 scene100_dense; do
  echo "== $scene: 100 objects, 10 frames"
  dir=$out/$scene
  report "$bin/fcl_scene" "$dir/scene.json" --frames "$dir/frames.json" --out "$out/fcl_$scene.json"
  report "$bin/fcl_scene" "$dir/scene.json" --frames "$dir/frames.json" --brute --out "$out/fcl_${scene}_brute.json"
  report "$bin/fcl_scene" "$dir/scene.json" --frames "$dir/frames.json" --mode all --out "$out/fcl_${scene}_all.json"
  for other in brute all; do
    echo "== fcl_$scene.json against fcl_${scene}_$other.json"
    python3 "$here/scene_compare.py" "$out/fcl_$scene.json" "$out/fcl_${scene}_$other.json" || true
  done
done

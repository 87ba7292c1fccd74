#!/usr/bin/env bash
# Builds the anchor harnesses: fcl_bench and fcl_scene (FCL 0.7), coal_bench (coal 3.0.3) and
# embree_bench (Embree 3.13), into ${BENCH_OUT:-target/anchors} (relative to the repository root).
#
# usage: bench/anchors/build.sh [fcl] [coal] [embree]      (no argument: all three)
#
# FCL, Embree, Eigen and nlohmann-json come from Debian's packages (apt-get, as root); coal's C++
# library comes from PyPI's `libcoal` wheel (headers, libcoal.so and, through its dependencies,
# the Boost, assimp, octomap and qhull libraries it links), installed into a virtual environment
# under the output directory. Written for Debian 12.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${BENCH_OUT:-target/anchors}
case $out in /*) ;; *) out=$root/$out ;; esac
COAL_VERSION=3.0.3

engines=("$@")
[ ${#engines[@]} -eq 0 ] && engines=(fcl coal embree)
for e in "${engines[@]}"; do
  case $e in fcl | coal | embree) ;; *) echo "build.sh: unknown engine '$e' (fcl, coal, embree)" >&2; exit 2 ;; esac
done

# -ffp-contract=off: no fused multiply-adds, so the rotation matrices are rounded as nalgebra's.
CXX=${CXX:-g++}
CXXFLAGS=(-std=c++17 -O2 -DNDEBUG -ffp-contract=off -Wall -Wextra -I"$here")

apt_updated=0
# Installs the Debian packages of "$@" that are not installed yet.
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated -eq 0 ]; then apt-get update -q; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build_fcl() {
  apt_install g++ pkg-config libfcl-dev libeigen3-dev nlohmann-json3-dev
  # FCL's pkg-config names Eigen and libccd; octomap is optional in its headers.
  local flags
  # (without its -std=c++11: the harnesses are C++17)
  read -r -a flags <<<"$(pkg-config --cflags --libs fcl | sed "s/-std=[^ ]*//")"
  "$CXX" "${CXXFLAGS[@]}" "$here/fcl_bench.cpp" -o "$out/fcl_bench" "${flags[@]}"
  "$CXX" "${CXXFLAGS[@]}" "$here/fcl_scene.cpp" -o "$out/fcl_scene" "${flags[@]}"
  echo "built $out/fcl_bench $out/fcl_scene (FCL $(pkg-config --modversion fcl))"
}

# A Python able to make a virtual environment (Debian's, installed if need be).
venv_python() {
  if command -v python3 >/dev/null && python3 -m venv --help >/dev/null 2>&1 &&
    python3 -c 'import ensurepip' 2>/dev/null; then
    echo python3
  else
    apt_install python3 python3-venv >&2
    echo /usr/bin/python3
  fi
}

build_coal() {
  apt_install g++ libeigen3-dev nlohmann-json3-dev
  local venv=$out/coal-venv
  if [ ! -x "$venv/bin/pip" ]; then "$(venv_python)" -m venv "$venv"; fi
  "$venv/bin/pip" install --disable-pip-version-check --progress-bar off "libcoal==$COAL_VERSION" ||
    { echo "build.sh: pip could not install libcoal==$COAL_VERSION from PyPI (see pip's messages above)" >&2; exit 1; }
  local prefix
  prefix=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/cmeel.prefix
  [ -f "$prefix/include/coal/collision.h" ] || { echo "build.sh: no coal headers in $prefix" >&2; exit 1; }
  # The definitions coal's own CMake export gives its users (lib/cmake/coal/coalTargets.cmake).
  "$CXX" "${CXXFLAGS[@]}" "$here/coal_bench.cpp" -o "$out/coal_bench" \
    -I"$prefix/include" -I/usr/include/eigen3 \
    -DCOAL_HAS_OCTOMAP -DCOAL_HAVE_OCTOMAP -DOCTOMAP_MAJOR_VERSION=1 -DOCTOMAP_MINOR_VERSION=10 -DOCTOMAP_PATCH_VERSION=0 \
    -L"$prefix/lib" -lcoal -Wl,-rpath,"$prefix/lib"
  echo "built $out/coal_bench (coal $COAL_VERSION from $prefix)"
}

build_embree() {
  apt_install g++ libembree-dev nlohmann-json3-dev
  "$CXX" "${CXXFLAGS[@]}" "$here/embree_bench.cpp" -o "$out/embree_bench" -lembree3
  echo "built $out/embree_bench (Embree $(dpkg-query -W -f='${Version}' libembree-dev))"
}

mkdir -p "$out"
for e in "${engines[@]}"; do "build_$e"; done

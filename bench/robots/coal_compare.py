#!/usr/bin/env python3
"""`obbtree robot` self-collision against pinocchio + coal, on the robots of example-robot-data.

usage: bench/robots/coal_compare.py [ROBOT ...] [-n N] [--seed S] [--cli OBBTREE]
       bench/robots/coal_compare.py --urdf URDF [--srdf SRDF] [--package-dir DIR] [-n N] ...

ROBOT is a name of `ROBOTS` (default: all of them); the CLI is `--cli`, else $OBBTREE_CLI, else
`obbtree` on PATH. Needs `pin` and `example-robot-data` (python/requirements-test.txt pins them).

For one robot:

* pinocchio builds the model without a free flyer (the root link is fixed, as in obbtree: a
  floating root moves every link alike and changes no self-collision). Mimic joints: pinocchio's
  URDF parser (mimic=False, its default, as in the tutorials) makes them independent joints, so
  their value is set here to `multiplier * leader + offset` from the URDF's `<mimic>`, which is
  what obbtree does with a joint that takes no value of its own.
* Configurations are drawn uniformly within the joint limits (seeded); a continuous joint, whose
  pinocchio value is (cos, sin), gets one angle in [-pi, pi]. The values are made in obbtree's
  joint order (`obbtree robot URDF --json` lists the moving joints) and mapped to pinocchio's
  joints by name.
* The pairs checked are made identical, by links (a geometry's parent frame is its link):
  pinocchio checks geometry pairs on different joints (`addAllCollisionPairs`) less the SRDF's
  disabled pairs; obbtree checks link pairs not joined by a joint, less the SRDF's disabled
  pairs. Pairs obbtree never checks are removed from pinocchio's collision pairs; pairs pinocchio
  never checks are passed to obbtree with `--allow`.
* Per configuration, the colliding link pairs of `pin.computeCollisions` and of
  `obbtree robot --configs --json` are compared. A disagreement on a pair that coal's distance
  (`computeDistance`, the least over the pair's geometries) puts within 1e-6 in magnitude is
  "near-touching, decided by the exact oracle" (obbtree is exact; coal's tests have
  tolerances): listed with the distance, not a failure. Any other disagreement is a failure,
  listed with the configuration index, the pair and coal's distance.
* One refinement: coal's distance between meshes that cross is 0, not a depth, so a pair that
  coal finds colliding and obbtree clear, at coal distance below 1e-6, is checked with the
  exact rational triangle test (python/tests/exact.py) on coal's own placed triangles: if some
  triangles meet, it is a failure (obbtree missed a crossing); if none do, it is near-touching,
  listed with the exact distance. A pair with a primitive is listed as near-touching without
  that check (coal's distance is signed for primitives, but 0 between a mesh and a primitive
  that it crosses).
* Another: a pair obbtree finds touching that coal's collision check calls separate (coal's
  distance may even be negative there: its box–box collision and distance disagree) is coal's
  miss when the pair's geometries are boxes and a centre or corner of one lies in the other,
  decided in exact rationals on coal's own placements: listed apart, not a failure.

Both engines treat primitives (box, cylinder, sphere) as solids and meshes as surfaces.
"""
import argparse
import importlib.metadata
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

# Within this distance (coal's, in metres) a disagreement is left to the exact answer.
NEAR = 1e-6

# The robots, as example-robot-data's loaders (and pinocchio's tutorials) load them:
# name -> (URDF, SRDF or None), relative to example-robot-data's robots/ folder.
ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf"),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", "ur_description/srdf/ur5.srdf"),
    "talos_reduced": ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf"),
    "tiago": ("tiago_description/robots/tiago.urdf", None),
    "pr2": ("pr2_description/urdf/pr2.urdf", "pr2_description/srdf/pr2.srdf"),
    "a1": ("a1_description/urdf/a1.urdf", "a1_description/srdf/a1.srdf"),
    "solo12": ("solo_description/robots/solo12.urdf", "solo_description/srdf/solo.srdf"),
    "romeo": ("romeo_description/urdf/romeo.urdf", None),
}


class CannotLoad(Exception):
    """obbtree refused the robot (its message is the first line of the CLI's error)."""


def share_dir():
    """example-robot-data's `share` folder: package://NAME/ is share/NAME/ there (the
    robots are under share/example-robot-data/robots)."""
    dist = importlib.metadata.distribution("example-robot-data")
    share = Path(dist.locate_file("cmeel.prefix/share"))
    if not (share / "example-robot-data" / "robots").is_dir():
        raise FileNotFoundError(f"example-robot-data's robots are not under {share}")
    return share


def robot_files(name):
    """(URDF, SRDF or None, package dir) of a robot of ROBOTS."""
    share = share_dir()
    robots = share / "example-robot-data" / "robots"
    urdf, srdf = ROBOTS[name]
    return robots / urdf, (robots / srdf if srdf else None), share


def find_cli(cli=None):
    cli = cli or os.environ.get("OBBTREE_CLI") or shutil.which("obbtree")
    if not cli or not Path(cli).is_file():
        raise FileNotFoundError(
            "the obbtree CLI was not found: pass --cli, or set OBBTREE_CLI to the binary "
            "(scripts/test sets it to target/ci/obbtree)"
        )
    return str(cli)


def pair(a, b):
    return (a, b) if a <= b else (b, a)


def urdf_joints(urdf):
    """The URDF's joints: name -> (type, parent link, child link, mimic or None), the mimic as
    (leader, multiplier, offset)."""
    joints = {}
    for j in ET.parse(urdf).getroot().iter("joint"):
        if j.find("parent") is None:  # a transmission's <joint>, not a kinematic one
            continue
        mimic = j.find("mimic")
        if mimic is not None:
            mimic = (
                mimic.get("joint"),
                float(mimic.get("multiplier", "1")),
                float(mimic.get("offset", "0")),
            )
        joints[j.get("name")] = (
            j.get("type"),
            j.find("parent").get("link"),
            j.find("child").get("link"),
            mimic,
        )
    return joints


def srdf_disabled(srdf):
    """The SRDF's <disable_collisions> link pairs."""
    if srdf is None:
        return set()
    root = ET.parse(srdf).getroot()
    return {pair(d.get("link1"), d.get("link2")) for d in root.iter("disable_collisions")}


def run_cli(cli, args, env=None):
    """Runs `obbtree ARGS`, returns its JSON; a refusal raises CannotLoad."""
    full_env = dict(os.environ, **(env or {}))
    done = subprocess.run([cli, *map(str, args)], capture_output=True, text=True, env=full_env)
    if done.returncode != 0:
        message = done.stderr.strip() or done.stdout.strip() or f"exit {done.returncode}"
        raise CannotLoad(message)
    return json.loads(done.stdout)


@dataclass
class Robot:
    """One robot set up in both engines with the same pairs checked."""

    name: str
    urdf: Path
    srdf: Path | None
    package_dir: Path
    cli: str
    refusal: str | None = None  # obbtree's refusal, for a robot set up for pinocchio alone
    model: object = None
    data: object = None
    geom_model: object = None
    geom_data: object = None
    joints: list = field(default_factory=list)  # obbtree's moving joints, in its order
    limits: list = field(default_factory=list)  # (lo, hi) per obbtree joint
    links: dict = field(default_factory=dict)  # link name -> its geometry elements (obbtree)
    pin_pairs: set = field(default_factory=set)  # link pairs pinocchio checks (before)
    obb_pairs: set = field(default_factory=set)  # link pairs obbtree checks (before)
    pairs: set = field(default_factory=set)  # link pairs both check
    allow: list = field(default_factory=list)  # for obbtree --allow
    geom_pairs: dict = field(default_factory=dict)  # link pair -> pinocchio pair indices
    index_pair: list = field(default_factory=list)  # pinocchio pair index -> link pair
    by_link: dict = field(default_factory=dict)  # link pair -> pinocchio's geometry index pairs
    assign: list = field(default_factory=list)  # how to fill pinocchio's q

    def counts(self):
        """The pair counts, as printed."""
        return {
            "pinocchio_link_pairs": len(self.pin_pairs),
            "obbtree_link_pairs": len(self.obb_pairs),
            "removed_from_pinocchio": len(self.pin_pairs - self.obb_pairs),
            "allowed_in_obbtree": len(self.obb_pairs - self.pin_pairs),
            "checked_by_both": len(self.pairs),
            "pinocchio_geometry_pairs": len(self.index_pair),
        }


def pinocchio_listing(model, geom_model, urdf_info):
    """What `obbtree robot --json` would list, from pinocchio's model, for a robot obbtree
    refuses: the URDF's joints that take a value (file order; a guess at obbtree's order) and
    the links with geometry."""
    joints = [
        {"name": name}
        for name, (kind, _, _, mimic) in urdf_info.items()
        if kind != "fixed" and mimic is None and model.existJointName(name)
    ]
    links = {}
    for g in geom_model.geometryObjects:
        links.setdefault(model.frames[g.parentFrame].name, []).append(g.name)
    return {"joints": joints, "links": [{"name": n, "meshes": m} for n, m in links.items()]}


def setup(name, urdf, srdf, package_dir, cli, pinocchio_only=False, listing=None):
    """Loads the robot in both engines and makes their checked pairs identical. Raises
    CannotLoad when obbtree refuses the robot, unless `pinocchio_only`: then the robot is set
    up for pinocchio alone (`refusal` holds obbtree's message). `listing` is what
    `obbtree robot URDF --json` lists (moving joints, links with their elements,
    pairs_checked), when the caller has it from elsewhere (the Python bindings): the CLI is
    then not run."""
    import pinocchio as pin

    robot = Robot(name, Path(urdf), Path(srdf) if srdf else None, Path(package_dir), cli)
    args = ["robot", robot.urdf, "--package-dir", robot.package_dir, "--json"]
    if robot.srdf:
        args += ["--srdf", robot.srdf]
    try:
        listing = listing or run_cli(cli, args)
    except CannotLoad as refusal:
        if not pinocchio_only:
            raise
        robot.refusal, listing = refusal.args[0], None
    model, geom_model, _ = pin.buildModelsFromUrdf(
        str(robot.urdf), package_dirs=[str(robot.package_dir)]
    )
    urdf_info = urdf_joints(robot.urdf)
    if listing is None:
        listing = pinocchio_listing(model, geom_model, urdf_info)
    robot.joints = [j["name"] for j in listing["joints"]]
    # Links with geometry (whatever lists of elements the listing gives a link).
    robot.links = {
        l["name"]: sum(len(v) for v in l.values() if isinstance(v, list)) for l in listing["links"]
    }
    robot.links = {name: n for name, n in robot.links.items() if n}
    robot.model = model
    robot.geom_model = geom_model

    # Joint values: obbtree's joints by name in pinocchio; mimics follow their leader.
    position = {j: k for k, j in enumerate(robot.joints)}
    for k, jname in enumerate(robot.joints):
        jid = model.getJointId(jname)
        if jid >= model.njoints:
            raise ValueError(f"{name}: obbtree's joint {jname!r} is not a pinocchio joint")
        joint = model.joints[jid]
        continuous = urdf_info[jname][0] == "continuous"
        if continuous:
            robot.limits.append((-math.pi, math.pi))
        else:
            lo, hi = model.lowerPositionLimit[joint.idx_q], model.upperPositionLimit[joint.idx_q]
            if not (np.isfinite(lo) and np.isfinite(hi)):
                lo, hi = -math.pi, math.pi
            robot.limits.append((float(lo), float(hi)))
    for jid in range(1, model.njoints):
        jname = model.names[jid]
        joint = model.joints[jid]
        kind, _, _, mimic = urdf_info[jname]
        if jname in position:
            source, mult, offset = position[jname], 1.0, 0.0
        elif mimic is not None and mimic[0] in position:
            source, mult, offset = position[mimic[0]], mimic[1], mimic[2]
        else:
            raise ValueError(f"{name}: pinocchio's joint {jname!r} has no value in obbtree")
        robot.assign.append((joint.idx_q, joint.nq, kind == "continuous", source, mult, offset))

    # Link pairs each engine checks.
    def link_of(g):
        return model.frames[geom_model.geometryObjects[g].parentFrame].name

    geom_links = {link_of(g) for g in range(len(geom_model.geometryObjects))}
    if geom_links != set(robot.links):
        raise ValueError(
            f"{name}: links with geometry differ: pinocchio only "
            f"{sorted(geom_links - set(robot.links))}, obbtree only "
            f"{sorted(set(robot.links) - geom_links)}"
        )
    geom_model.addAllCollisionPairs()
    if robot.srdf:
        pin.removeCollisionPairs(model, geom_model, str(robot.srdf))
    by_link = {}
    for cp in geom_model.collisionPairs:
        # (first, second) copied: the pairs themselves are views into the model's vector
        by_link.setdefault(pair(link_of(cp.first), link_of(cp.second)), []).append(
            (cp.first, cp.second)
        )
    robot.pin_pairs = set(by_link)

    joined = {pair(parent, child) for _, parent, child, _ in urdf_info.values()}
    disabled = srdf_disabled(robot.srdf)
    names = sorted(robot.links)
    robot.obb_pairs = {
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if (a, b) not in joined and (a, b) not in disabled
    }
    # obbtree's count is of element pairs (a link with several elements is several objects),
    # counted here with pinocchio's geometries (one per element).
    elements = {}
    for g in range(len(geom_model.geometryObjects)):
        elements[link_of(g)] = elements.get(link_of(g), 0) + 1
    element_pairs = sum(elements[a] * elements[b] for a, b in robot.obb_pairs)
    if robot.refusal is None and element_pairs != listing["pairs_checked"]:
        raise AssertionError(
            f"{name}: obbtree checks {listing['pairs_checked']} element pairs, the link pairs "
            f"derived here make {element_pairs}: the pair sets cannot be made identical"
        )

    robot.by_link = by_link
    robot.data = model.createData()
    restrict(robot, robot.pin_pairs & robot.obb_pairs)
    return robot


def restrict(robot, keep):
    """Makes both engines check exactly the link pairs `keep` (of those both can check):
    pinocchio's collision pairs become theirs, obbtree allows every other pair it would
    check."""
    import pinocchio as pin

    robot.pairs = set(keep)
    robot.allow = sorted(robot.obb_pairs - robot.pairs)
    geom_model = robot.geom_model
    geom_model.removeAllCollisionPairs()
    for key in sorted(robot.pairs):
        for first, second in robot.by_link[key]:
            geom_model.addCollisionPair(pin.CollisionPair(first, second))
    frames = robot.model.frames
    link = lambda g: frames[geom_model.geometryObjects[g].parentFrame].name  # noqa: E731
    robot.index_pair = [pair(link(cp.first), link(cp.second)) for cp in geom_model.collisionPairs]
    robot.geom_pairs = {}
    for k, key in enumerate(robot.index_pair):
        robot.geom_pairs.setdefault(key, []).append(k)
    robot.geom_data = pin.GeometryData(geom_model)


def setup_named(name, cli=None, pinocchio_only=False):
    urdf, srdf, share = robot_files(name)
    return setup(name, urdf, srdf, share, find_cli(cli), pinocchio_only)


def random_configs(robot, n, seed):
    """n configurations (obbtree's joint order) uniform within the limits."""
    rng = np.random.default_rng(seed)
    lo = np.array([l for l, _ in robot.limits])
    hi = np.array([h for _, h in robot.limits])
    return lo + (hi - lo) * rng.random((n, len(robot.joints)))


def pin_q(robot, values):
    """pinocchio's q for one configuration in obbtree's joint order."""
    q = np.zeros(robot.model.nq)
    for idx, nq, continuous, source, mult, offset in robot.assign:
        v = mult * values[source] + offset
        if continuous:
            q[idx], q[idx + 1] = math.cos(v), math.sin(v)
        elif nq == 1:
            q[idx] = v
        else:
            raise ValueError(f"{robot.name}: a joint with {nq} values")
    return q


def pin_collisions(robot, configs):
    """The colliding link pairs of pinocchio per configuration."""
    import pinocchio as pin

    found = []
    for values in configs:
        pin.computeCollisions(
            robot.model, robot.data, robot.geom_model, robot.geom_data, pin_q(robot, values), False
        )
        found.append(
            {
                robot.index_pair[k]
                for k, r in enumerate(robot.geom_data.collisionResults)
                if r.isCollision()
            }
        )
    return found


def place(robot, values):
    """Poses every geometry (pinocchio's forward kinematics) at a configuration."""
    import pinocchio as pin

    pin.forwardKinematics(robot.model, robot.data, pin_q(robot, values))
    pin.updateGeometryPlacements(robot.model, robot.data, robot.geom_model, robot.geom_data)


def coal_distance(robot, values, key):
    """coal's smallest distance over the geometry pairs of link pair `key` at a configuration
    (negative for primitives that overlap; 0 for meshes that cross: coal measures no depth
    between surfaces)."""
    import pinocchio as pin

    place(robot, values)
    return min(
        pin.computeDistance(robot.geom_model, robot.geom_data, k).min_distance
        for k in robot.geom_pairs[key]
    )


def placed_triangles(robot, g):
    """The triangles of mesh geometry g as coal holds them, placed as pinocchio places them."""
    geometry = robot.geom_model.geometryObjects[g].geometry
    if not type(geometry).__name__.startswith("BVHModel"):
        return None
    vertices = np.asarray(geometry.vertices(), dtype=float)
    faces = np.array(
        [[t[0], t[1], t[2]] for t in map(geometry.tri_indices, range(geometry.num_tris))]
    )
    placement = robot.geom_data.oMg[g]
    return (vertices @ placement.rotation.T + placement.translation)[faces]


def box_frame(robot, g):
    """A box geometry as coal holds it: (rotation, translation, half sides) as Fractions, or
    None for any other geometry."""
    geometry = robot.geom_model.geometryObjects[g].geometry
    if type(geometry).__name__ != "Box":
        return None
    placement = robot.geom_data.oMg[g]
    rotation = [[Fraction(float(x)) for x in row] for row in np.asarray(placement.rotation)]
    translation = [Fraction(float(x)) for x in np.asarray(placement.translation)]
    half = [Fraction(float(x)) for x in np.asarray(geometry.halfSide)]
    return rotation, translation, half


def box_points(frame):
    """The centre and the eight corners of a box (exact, from its frame)."""
    rotation, translation, half = frame
    signs = [(0, 0, 0)] + [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    return [
        [translation[i] + sum(rotation[i][k] * s[k] * half[k] for k in range(3)) for i in range(3)]
        for s in signs
    ]


def in_box(point, frame):
    """Whether `point` lies in the closed box `frame`: |Rᵀ(p − t)| <= h on each axis, exact."""
    rotation, translation, half = frame
    local = [sum(rotation[i][k] * (point[i] - translation[i]) for i in range(3)) for k in range(3)]
    return all(abs(local[k]) <= half[k] for k in range(3))


def boxes_meet(robot, values, key):
    """For a link pair whose geometries are boxes: True when some geometry pair certainly
    meets (a centre or corner of one box lies in the other, decided in exact rationals on coal's
    own placements), None when a geometry is not a box or no such point is found."""
    place(robot, values)
    for k in robot.geom_pairs[key]:
        cp = robot.geom_model.collisionPairs[k]
        a, b = box_frame(robot, cp.first), box_frame(robot, cp.second)
        if a is None or b is None:
            return None
        if any(in_box(p, b) for p in box_points(a)) or any(in_box(p, a) for p in box_points(b)):
            return True
    return None


def exact_verdict(robot, values, key):
    """For meshes (surfaces) that coal finds colliding within NEAR of touching: the exact
    rational triangle test (python/tests/exact.py) on coal's own placed triangles. Returns
    (intersecting, distance, skipped): whether some triangles of the pair meet, else their
    exact distance (inf beyond NEAR), and how many triangle pairs were left out for a
    degenerate triangle (which the oracle does not take); None when the pair holds a
    primitive."""
    tests = str(Path(__file__).resolve().parents[2] / "python" / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import exact

    place(robot, values)
    best, skipped = math.inf, 0
    for k in robot.geom_pairs[key]:
        cp = robot.geom_model.collisionPairs[k]
        a, b = placed_triangles(robot, cp.first), placed_triangles(robot, cp.second)
        if a is None or b is None:
            return None
        # Only triangle pairs whose boxes come within NEAR can meet or be within NEAR.
        lo_a, hi_a, lo_b, hi_b = a.min(1), a.max(1), b.min(1), b.max(1)
        reach = np.all((lo_a <= hi_b.max(0) + NEAR) & (lo_b.min(0) <= hi_a + NEAR), 1)
        for i in np.flatnonzero(reach):
            near = np.all((lo_a[i] <= hi_b + NEAR) & (lo_b <= hi_a[i] + NEAR), 1)
            for j in np.flatnonzero(near):
                try:
                    d2 = exact.triangle_distance_squared(a[i], b[j])
                except ValueError:  # a degenerate triangle
                    skipped += 1
                    continue
                if d2 == 0:
                    return True, 0.0, skipped
                best = min(best, math.sqrt(d2))
    return False, best, skipped


def obbtree_run(robot, configs, path=False, resolution=None, threads=None):
    """`obbtree robot --configs` on the configurations (with --allow for the pairs pinocchio
    never checks); its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        cfile, afile = Path(tmp) / "configs.json", Path(tmp) / "allow.json"
        cfile.write_text(json.dumps({"configs": [list(map(float, c)) for c in configs]}))
        afile.write_text(json.dumps({"allow": [list(p) for p in robot.allow]}))
        args = ["robot", robot.urdf, "--package-dir", robot.package_dir, "--configs", cfile]
        args += ["--allow", afile, "--json"]
        if robot.srdf:
            args += ["--srdf", robot.srdf]
        if path:
            args += ["--path", "--resolution", repr(resolution)]
        env = {"RAYON_NUM_THREADS": str(threads)} if threads else None
        report = run_cli(robot.cli, args, env)
    if report["joints"] != robot.joints:
        raise AssertionError(f"{robot.name}: obbtree's joint order changed")
    return report


@dataclass
class Outcome:
    robot: str
    configs: int
    counts: dict
    agree: int = 0  # configurations where both found the same pairs
    colliding: int = 0  # configurations where both found some pair
    pair_hits: int = 0  # colliding (configuration, pair) found by both
    # (configuration index, pair, coal's answer, coal's distance, what the exact test says)
    near: list = field(default_factory=list)
    # Pairs obbtree finds touching, coal's collision check does not, and an exact witness point
    # settles for obbtree (boxes).
    coal_wrong: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    pin_ms: float = 0.0
    obbtree_ms: float = 0.0

    def summary(self):
        lines = [
            f"{self.robot}: {self.configs} configurations; link pairs checked: pinocchio "
            f"{self.counts['pinocchio_link_pairs']}, obbtree {self.counts['obbtree_link_pairs']}; "
            f"{self.counts['removed_from_pinocchio']} removed from pinocchio, "
            f"{self.counts['allowed_in_obbtree']} allowed in obbtree, both check "
            f"{self.counts['checked_by_both']} ({self.counts['pinocchio_geometry_pairs']} "
            "geometry pairs in pinocchio)",
            f"  same pairs in {self.agree}/{self.configs} configurations; {self.colliding} with "
            f"a collision, {self.pair_hits} colliding pairs found by both; pinocchio "
            f"{self.pin_ms:.0f} ms, obbtree {self.obbtree_ms:.0f} ms (query total)",
            f"  near-touching, decided by the exact oracle: {len(self.near)}",
        ]
        for i, (a, b), coal_says, d, note in self.near:
            note = f" ({note})" if note else ""
            lines.append(f"    config {i}: {a}–{b}: coal {coal_says}, distance {d:.3g}{note}")
        lines.append(f"  coal's misses, decided by an exact witness point: {len(self.coal_wrong)}")
        for i, (a, b), coal_says, d, note in self.coal_wrong:
            lines.append(f"    config {i}: {a}–{b}: coal {coal_says}, distance {d:.3g} ({note})")
        lines.append(f"  failures: {len(self.failures)}")
        for i, (a, b), coal_says, d, note in self.failures:
            note = f" ({note})" if note else ""
            lines.append(f"    config {i}: {a}–{b}: coal {coal_says}, distance {d:.6g}{note}")
        return "\n".join(lines)


def compare(robot, n, seed=0, run=None):
    """Draws n configurations and compares the two engines on them. obbtree's answers come
    from `run(robot, configs)`, in the form of `obbtree_run`'s report (`results`, each with
    its `self` pairs, and `query_total_ms`); by default from `obbtree_run` (the CLI)."""
    configs = random_configs(robot, n, seed)
    start = time.perf_counter()
    pin_found = pin_collisions(robot, configs)
    pin_ms = (time.perf_counter() - start) * 1e3
    report = (run or obbtree_run)(robot, configs)
    out = Outcome(robot.name, n, robot.counts(), pin_ms=pin_ms, obbtree_ms=report["query_total_ms"])
    for i, (mine, theirs) in enumerate(zip(pin_found, report["results"])):
        obb = {pair(a, b) for a, b in theirs["self"]}
        if obb - robot.pairs:
            unchecked = sorted(obb - robot.pairs)
            raise AssertionError(f"{robot.name}: obbtree reported unchecked pairs {unchecked}")
        out.agree += mine == obb
        out.colliding += bool(mine and obb)
        out.pair_hits += len(mine & obb)
        for key in sorted(mine ^ obb):
            d = coal_distance(robot, configs[i], key)
            if key in obb:
                if boxes_meet(robot, configs[i], key):
                    note = "coal misses boxes that meet: a point of one lies in the other (exact)"
                    out.coal_wrong.append((i, key, "separate", d, note))
                    continue
                (out.near if abs(d) < NEAR else out.failures).append((i, key, "separate", d, ""))
                continue
            if abs(d) >= NEAR:
                out.failures.append((i, key, "collision", d, ""))
                continue
            verdict = exact_verdict(robot, configs[i], key)
            if verdict is None:
                out.near.append((i, key, "collision", d, "a primitive: not checked exactly"))
            elif verdict[0]:
                note = "the exact test finds triangles meeting"
                out.failures.append((i, key, "collision", d, note))
            else:
                note = f"exactly {verdict[1]:.3g} apart"
                if verdict[2]:
                    note += f"; {verdict[2]} triangle pairs with a degenerate one not checked"
                out.near.append((i, key, "collision", d, note))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("robots", nargs="*", help=f"of {', '.join(ROBOTS)} (default: all)")
    parser.add_argument("--urdf", help="another robot: its URDF")
    parser.add_argument("--srdf", help="with --urdf: its SRDF")
    parser.add_argument("--package-dir", help="with --urdf: where package:// names are")
    parser.add_argument("-n", type=int, default=1000, help="configurations (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cli", help="the obbtree binary (default $OBBTREE_CLI, then PATH)")
    args = parser.parse_args(argv)
    cli = find_cli(args.cli)
    if args.urdf:
        todo = [(Path(args.urdf).stem, args.urdf, args.srdf, args.package_dir or share_dir())]
    else:
        todo = [(r, *robot_files(r)) for r in (args.robots or ROBOTS)]
    failed = False
    for name, urdf, srdf, share in todo:
        try:
            robot = setup(name, urdf, srdf, share, cli)
        except CannotLoad as e:
            print(f"{name}: obbtree cannot load it: {e.args[0].splitlines()[0]}\n")
            continue
        outcome = compare(robot, args.n, args.seed)
        print(outcome.summary() + "\n", flush=True)
        failed |= bool(outcome.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

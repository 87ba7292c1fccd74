"""`obbtree.Robot` on example-robot-data's robots, against pinocchio + coal.

Self-collision: seeded random configurations within the limits; at each, the link pairs that
`Robot.collide_self` finds must be those that pinocchio's `computeCollisions` finds, with the
same pairs checked (the SRDF applied in both) and disagreements within 1e-6 of touching left to
the exact answer: the reconciliation of bench/robots/coal_compare.py (its docstring says how),
fed with the bindings' answers instead of the CLI's. panda is made of meshes; talos_reduced has
boxes and cylinders too.

Fixtures are placed on a vertex of a link's mesh as pinocchio places it; distances are
compared with coal's; paths with the single-configuration answers at the configurations that
`check_path` documents; the batch forms with the single forms.
"""

import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import obbtree

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "robots"))

import coal_compare  # noqa: E402

SEED = 2026


def collision_elements(urdf):
    """Link name -> number of <collision> elements, read from the URDF itself."""
    root = ET.parse(urdf).getroot()
    return {link.get("name"): len(link.findall("collision")) for link in root.iter("link")}


def load(name, **options):
    """(obbtree robot, coal_compare's robot) for a robot of coal_compare.ROBOTS, checking the
    same link pairs: the pairs pinocchio does not check are allowed in obbtree."""
    urdf, srdf, share = coal_compare.robot_files(name)
    robot = obbtree.Robot(urdf, package_dirs=[share], srdf=srdf, **options)
    listing = {
        "joints": [{"name": j} for j in robot.joints],
        "links": [
            {"name": link, "collision": [None] * count}
            for link, count in collision_elements(urdf).items()
        ],
        "pairs_checked": robot.pairs_checked,
    }
    both = coal_compare.setup(name, urdf, srdf, share, cli=None, listing=listing)
    for a, b in both.allow:
        robot.allow(a, b)
    return robot, both


@pytest.fixture(scope="module")
def panda():
    return load("panda")


def bindings_run(robot):
    """coal_compare's `run`: the bindings' `collide_self` at each configuration."""

    def run(both, configs):
        start = time.perf_counter()
        results = [{"self": [list(p) for p in robot.collide_self(q)]} for q in configs]
        return {"results": results, "query_total_ms": (time.perf_counter() - start) * 1e3}

    return run


@pytest.mark.parametrize("name, count", [("panda", 300), ("talos_reduced", 100)])
def test_self_collision_matches_coal(name, count, panda):
    robot, both = panda if name == "panda" else load(name)
    assert robot.joints == both.joints
    outcome = coal_compare.compare(both, count, SEED, run=bindings_run(robot))
    print(outcome.summary())
    assert not outcome.failures, outcome.summary()
    # Both answers were seen: some configurations collide, some do not.
    assert 0 < outcome.colliding < count, outcome.summary()


def test_properties(panda):
    robot, both = panda
    urdf = coal_compare.robot_files("panda")[0]
    assert robot.name == "panda"
    assert robot.links == [link.get("name") for link in ET.parse(urdf).getroot().iter("link")]
    # One value per joint (panda's are revolute and prismatic), one row of limits per value.
    assert robot.values == robot.joints
    limits = robot.limits
    assert limits.shape == (len(robot.values), 2) and limits.dtype == np.float64
    for k, joint in enumerate(robot.joints):
        jid = both.model.getJointId(joint)
        idx = both.model.joints[jid].idx_q
        assert limits[k, 0] == both.model.lowerPositionLimit[idx]
        assert limits[k, 1] == both.model.upperPositionLimit[idx]
    assert "panda" in repr(robot)


def test_unlimited_joints_have_infinite_limits(tmp_path):
    urdf = tmp_path / "wheel.urdf"
    urdf.write_text(
        '<robot name="wheel"><link name="base"/><link name="wheel"/>'
        '<joint name="spin" type="continuous"><parent link="base"/><child link="wheel"/>'
        '<axis xyz="0 0 1"/></joint></robot>'
    )
    robot = obbtree.Robot(urdf)
    assert robot.joints == ["spin"]
    np.testing.assert_array_equal(robot.limits, [[-np.inf, np.inf]])
    assert robot.collide_self([1e6]) == [] and robot.distance([0.0]) is None


def test_batches_equal_single_answers(panda):
    robot, both = panda
    qs = coal_compare.random_configs(both, 200, SEED + 1)
    single = [robot.collide_self(q) for q in qs]
    assert robot.collide_self_many(qs) == single
    touching = robot.collides_many(qs)
    assert touching.dtype == np.bool_ and touching.shape == (len(qs),)
    np.testing.assert_array_equal(touching, [bool(pairs) for pairs in single])
    assert 0 < touching.sum() < len(qs)
    assert robot.collide_self_many(np.empty((0, len(robot.joints)))) == []


def colliding_and_free(robot, both, count=200):
    """A configuration where pinocchio finds a collision, and one where it finds none and
    nothing is within 1 cm (so both engines agree on them beyond any tolerance)."""
    qs = coal_compare.random_configs(both, count, SEED + 2)
    found = coal_compare.pin_collisions(both, qs)
    hit = next(q for q, pairs in zip(qs, found) if pairs)
    free = next(q for q, pairs in zip(qs, found) if not pairs and robot.distance(q)[2] > 0.01)
    return hit, free


def test_fixture_on_a_link_is_reported_and_one_far_away_is_not(panda):
    robot, both = panda
    _, free = colliding_and_free(robot, both)
    coal_compare.place(both, free)
    geometry = next(
        g
        for g, o in enumerate(both.geom_model.geometryObjects)
        if both.model.frames[o.parentFrame].name == "panda_link7"
    )
    vertex = coal_compare.placed_triangles(both, geometry)[0, 0]
    near, far = np.eye(4), np.eye(4)
    near[:3, 3], far[:3, 3] = vertex, (10.0, 10.0, 10.0)
    urdf, srdf, share = coal_compare.robot_files("panda")
    fixture = obbtree.Robot(urdf, package_dirs=[share], srdf=srdf)
    fixture.add_fixture("bead", obbtree.Model.sphere(0.002), near)
    fixture.add_fixture("far", obbtree.Model.box([1.0, 1.0, 1.0]), far)
    _, environment = fixture.collide(free)
    assert ("panda_link7", "bead") in environment
    assert all(name == "bead" for _, name in environment)
    # The link comes first, though the fixture's name sorts before it.
    link, other, d, _, _ = fixture.distance(free)
    assert link.startswith("panda_") and other == "bead" and d == 0.0
    # The same objects in a Scene: the robot's copy follows the scene's changes.
    scene = obbtree.Scene()
    scene.insert("marble", obbtree.Model.sphere(0.002), near)
    scene.insert("crate", obbtree.Model.box([1.0, 1.0, 1.0]), far)
    assert ("panda_link7", "marble") in robot.collide_scene(free, scene)
    assert robot.collide(free, scene) == ([], robot.collide_scene(free, scene))
    assert robot.collides_many(np.stack([free, free]), scene).all()
    assert not robot.collides_many(np.stack([free]))[0]
    scene.set_pose("marble", far)
    assert robot.collide_scene(free, scene) == []
    scene.remove("crate")
    scene.insert("crate", obbtree.Model.box([0.01, 0.01, 0.01]), near)
    assert ("panda_link7", "crate") in robot.collide_scene(free, scene)
    assert robot.collide(free) == ([], []), "the scene's objects are no fixtures of the robot"
    # A robot with fixtures against a scene: collide reports both, collide_scene the scene's.
    both_kinds = {name for _, name in fixture.collide(free, scene)[1]}
    assert both_kinds == {"bead", "crate"}
    assert {name for _, name in fixture.collide_scene(free, scene)} == {"crate"}
    # Allowing a pair applies to the copy with the scene's objects too.
    fixture.allow("panda_link7", "bead")
    assert ("panda_link7", "bead") not in fixture.collide(free, scene)[1]
    assert ("panda_link7", "bead") not in fixture.collide(free)[1]


def test_distance_matches_coal(panda):
    import pinocchio as pin

    robot, both = panda
    for q in coal_compare.random_configs(both, 20, SEED + 3):
        found = robot.distance(q)
        pin.computeDistances(
            both.model, both.data, both.geom_model, both.geom_data, coal_compare.pin_q(both, q)
        )
        coal = min(r.min_distance for r in both.geom_data.distanceResults)
        if coal <= 0:
            assert found[2] == 0.0 or abs(coal) < coal_compare.NEAR
            continue
        link, other, d, point_a, point_b = found
        assert abs(d - coal) < 1e-6, (q, found, coal)
        assert abs(np.linalg.norm(point_a - point_b) - d) < 1e-9
        assert link in robot.links and other in robot.links


def interpolated(path, resolution):
    """The configurations check_path documents, in order."""
    out = [np.asarray(path[0], float)]
    for a, b in zip(path, path[1:]):
        a, b = np.asarray(a, float), np.asarray(b, float)
        m = max(1, int(np.ceil(np.max(np.abs(b - a)) / resolution)))
        out += [a + (b - a) * (k / m) for k in range(1, m)] + [b]
    return np.array(out)


def test_check_path_stops_at_the_first_collision(panda):
    robot, both = panda
    hit, free = colliding_and_free(robot, both)
    path, resolution = [free, hit], 0.05
    steps = interpolated(path, resolution)
    answers = robot.collide_self_many(steps)
    first = next(k for k, pairs in enumerate(answers) if pairs)
    found = robot.check_path(path, resolution)
    assert found.first_collision == first > 0
    assert found.checked == first + 1
    np.testing.assert_array_equal(found.configuration, steps[first])
    assert found.self_collisions == answers[first]
    assert found.environment == []
    assert found.first_within_margin is None and found.clearance is None


def test_check_path_without_collision_and_its_clearance(panda):
    robot, both = panda
    _, free = colliding_and_free(robot, both)
    lower, upper = robot.limits.T
    end = np.clip(free + 0.02, lower, upper)
    path, resolution = np.stack([free, end, free]), 0.004
    steps = interpolated(path, resolution)
    assert all(pairs == [] for pairs in robot.collide_self_many(steps))
    found = robot.check_path(path, resolution)
    assert found.first_collision is None and found.configuration is None
    assert found.checked == len(steps)
    distances = np.array([robot.distance(q)[2] for q in steps])
    margin = float(np.median(distances))
    found = robot.check_path(path, resolution, margin=margin)
    assert found.first_within_margin == int(np.flatnonzero(distances <= margin)[0])
    best = int(np.argmin(distances))
    assert found.clearance_index == best
    np.testing.assert_array_equal(found.clearance_configuration, steps[best])
    assert abs(found.clearance[2] - distances[best]) <= 1e-12
    assert robot.check_path(path, resolution, margin=distances.min() / 2).clearance is None


def test_fixtures_in_paths(panda):
    import pinocchio as pin

    robot, both = panda
    _, free = colliding_and_free(robot, both)
    lower, upper = robot.limits.T
    end = np.clip(free + 0.5, lower, upper)
    steps = interpolated([free, end], 0.01)
    # A wall about the origin of panda_link7's frame at the last configuration, as pinocchio
    # places it.
    pin.framesForwardKinematics(both.model, both.data, coal_compare.pin_q(both, end))
    wall = np.eye(4)
    wall[:3, 3] = both.data.oMf[both.model.getFrameId("panda_link7")].translation
    scene = obbtree.Scene()
    scene.insert("wall", obbtree.Model.box([0.1, 0.1, 0.1]), wall)
    assert ("panda_link7", "wall") in robot.collide_scene(end, scene)
    touching = [any(robot.collide(q, scene)) for q in steps]
    np.testing.assert_array_equal(robot.collides_many(steps, scene), touching)
    assert not touching[0]
    found = robot.check_path([free, end], 0.01, scene=scene)
    assert found.first_collision == touching.index(True)
    assert (found.self_collisions, found.environment) == robot.collide(found.configuration, scene)


def test_errors_name_the_thing(tmp_path, panda):
    robot, both = panda
    urdf, srdf, share = coal_compare.robot_files("panda")
    n = len(robot.joints)
    missing = tmp_path / "missing.urdf"
    with pytest.raises(FileNotFoundError, match="missing.urdf"):
        obbtree.Robot(missing)
    with pytest.raises(FileNotFoundError, match=r"package_dirs\[1\]: .*nowhere"):
        obbtree.Robot(urdf, package_dirs=[share, tmp_path / "nowhere"])
    with pytest.raises(NotADirectoryError, match=r"package_dirs\[0\]"):
        obbtree.Robot(urdf, package_dirs=[urdf])
    moved = tmp_path / "panda.urdf"
    moved.write_text(Path(urdf).read_text())
    with pytest.raises(obbtree.LoadError, match=r"panda.urdf: link .*package \"example-robot-data\" not found"):
        obbtree.Robot(moved, package_dirs=[tmp_path])
    garbage = tmp_path / "garbage.urdf"
    garbage.write_text("<robot name='x'><link></robot>")
    with pytest.raises(obbtree.LoadError, match="garbage.urdf: not a valid URDF"):
        obbtree.Robot(garbage)
    bad_srdf = tmp_path / "bad.srdf"
    bad_srdf.write_text(
        '<robot name="panda"><disable_collisions link1="panda_link0" link2="no_such_link"/>'
        "</robot>"
    )
    with pytest.raises(obbtree.LoadError, match=r"srdf: .*bad.srdf: line 1: .*\"no_such_link\""):
        obbtree.Robot(urdf, package_dirs=[share], srdf=bad_srdf)
    with pytest.raises(obbtree.Error, match="geometry: \"visible\""):
        obbtree.Robot(urdf, package_dirs=[share], geometry="visible")

    q = np.zeros(n)
    q[3] = -1.0
    with pytest.raises(obbtree.RobotError, match=rf"q: expected an array of shape \({n},\)"):
        robot.collide_self(q[:-1])
    nan = q.copy()
    nan[2] = np.nan
    with pytest.raises(obbtree.RobotError, match=r'q: the value of joint "panda_joint3" \(q\[2\]\) is NaN'):
        robot.collide_self(nan)
    outside = q.copy()
    outside[0] = 3.5
    with pytest.raises(obbtree.RobotError, match=r'q: .*panda.urdf: joint "panda_joint1": value 3.5 is outside'):
        robot.collide(outside)
    with pytest.raises(obbtree.RobotError, match=r'qs\[1\]: .*joint "panda_joint1": value 3.5'):
        robot.collides_many([q, outside])
    with pytest.raises(obbtree.RobotError, match=r'qs\[1\]: the value of joint "panda_joint3" \(qs\[1\]\[2\]\)'):
        robot.collide_self_many([q, nan])
    with pytest.raises(obbtree.RobotError, match=r"path: configuration 1: .*panda_joint1"):
        robot.check_path([q, outside], 0.1)
    with pytest.raises(obbtree.RobotError, match="resolution: the resolution must be a positive"):
        robot.check_path([q, q], 0.0)
    with pytest.raises(obbtree.QueryError, match="margin: "):
        robot.check_path([q, q], 0.1, margin=-1.0)
    with pytest.raises(obbtree.SceneError, match='name: an object named "panda_hand"'):
        robot.add_fixture("panda_hand", obbtree.Model.sphere(1.0))
    with pytest.raises(obbtree.RobotError, match='allow: no link or fixture named "table"'):
        robot.allow("panda_link0", "table")
    with pytest.raises(obbtree.Error, match="scene: the robot's links are obb models"):
        robot.collide_scene(q, obbtree.Scene(bv="aabb"))
    with pytest.raises(obbtree.Error, match="model: the robot's links are obb models, not aabb"):
        robot.add_fixture("ball", obbtree.Model.sphere(1.0, bv="aabb"))
    scene = obbtree.Scene()
    scene.insert("panda_link3", obbtree.Model.sphere(0.1))
    with pytest.raises(obbtree.SceneError, match='scene: an object named "panda_link3"'):
        robot.collide(q, scene)

    lenient = obbtree.Robot(urdf, package_dirs=[share], check_limits=False)
    lenient.collide_self(outside)
    assert lenient.collides_many([outside]).shape == (1,)


def test_batches_release_the_gil(panda):
    """A Python thread runs while a batch is checked: some of its ticks fall in the middle of
    the call, which a call holding the GIL would not allow (the other thread could run only
    at its start and end)."""
    robot, both = panda
    qs = coal_compare.random_configs(both, 200, SEED + 4)
    start = time.perf_counter()
    robot.collides_many(qs)
    if time.perf_counter() - start < 0.05:
        qs = np.concatenate([qs] * int(np.ceil(0.05 / (time.perf_counter() - start))))
    for batch in (robot.collides_many, robot.collide_self_many):
        ticks, stop = [], threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(time.perf_counter())

        thread = threading.Thread(target=tick)
        thread.start()
        while not ticks:
            time.sleep(0.001)
        start = time.perf_counter()
        batch(qs)
        end = time.perf_counter()
        stop.set()
        thread.join()
        quarter = (end - start) / 4
        middle = [t for t in ticks if start + quarter < t < end - quarter]
        assert middle, f"{batch.__name__}: no tick in the middle of a {end - start:.3f} s call"


def test_one_robot_shared_by_threads(panda):
    robot, both = panda
    qs = coal_compare.random_configs(both, 64, SEED + 5)
    expected = [robot.collide_self(q) for q in qs]
    from concurrent.futures import ThreadPoolExecutor

    def work(k):
        q = qs[k % len(qs)]
        return k, robot.collide_self(q), robot.collide_self_many(qs[:8])

    with ThreadPoolExecutor(max_workers=4) as pool:
        for k, pairs, many in pool.map(work, range(128)):
            assert pairs == expected[k % len(qs)]
            assert many == expected[:8]

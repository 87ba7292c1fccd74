"""Floating and planar joints in `obbtree.Robot`, against pinocchio's forward kinematics.

A robot mixing a floating joint (below a fixed one), revolute, continuous, planar (axis z, and
no axis) and mimic joints is read by pinocchio's URDF parser (which reads `floating` as its
free-flyer joint and `planar` as its `JointModelPlanar`); for seeded random configurations,
every link's world pose from `Robot.link_poses` must be pinocchio's within 1e-12. obbtree's
configuration is mapped to pinocchio's by joint name: a floating joint's seven values as they
are (both take `x, y, z, qx, qy, qz, qw`), a planar joint's `x, y, theta` as pinocchio's
`x, y, cos theta, sin theta`, a continuous joint's angle as `cos, sin`, and a mimic joint (which
pinocchio's parser makes an independent joint) set to `multiplier * leader + offset`. The same
on a shipped robot: example-robot-data's g1 with its (commented-out) floating base restored.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import obbtree

pin = pytest.importorskip("pinocchio")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "robots"))

import coal_compare  # noqa: E402

SEED = 2026

URDF = """<robot name="rover">
  <link name="world"/>
  <link name="pedestal"/>
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="arm"/><link name="finger"/><link name="cart"/><link name="sled"/><link name="wheel"/>
  <joint name="mount" type="fixed"><parent link="world"/><child link="pedestal"/>
    <origin xyz="0 0 0.7" rpy="0 0 0.3"/></joint>
  <joint name="free" type="floating"><parent link="pedestal"/><child link="base"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="finger" type="revolute"><parent link="arm"/><child link="finger"/>
    <origin xyz="0.2 0 0"/><axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/>
    <mimic joint="shoulder" multiplier="-0.5" offset="0.2"/></joint>
  <joint name="slide" type="planar"><parent link="arm"/><child link="cart"/>
    <origin xyz="0.3 0 0" rpy="0.4 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="glide" type="planar"><parent link="base"/><child link="sled"/>
    <origin xyz="0 0.1 -0.2" rpy="0 0.5 0"/></joint>
  <joint name="spin" type="continuous"><parent link="base"/><child link="wheel"/>
    <origin xyz="-0.2 0 0"/><axis xyz="0 0.6 0.8"/></joint>
</robot>"""

# A floating joint's values after its name, in order (MoveIt's names).
FLOATING = ("trans_x", "trans_y", "trans_z", "rot_x", "rot_y", "rot_z", "rot_w")

VALUES = (
    [f"free/{v}" for v in FLOATING]
    + ["shoulder", "glide/x", "glide/y", "glide/theta", "spin"]
    + ["slide/x", "slide/y", "slide/theta"]
)


@pytest.fixture(scope="module")
def urdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("rover") / "rover.urdf"
    path.write_text(URDF)
    return path


@pytest.fixture(scope="module")
def rover(urdf):
    return obbtree.Robot(urdf)


# The rover's mimic joint: name -> (leader, multiplier, offset).
MIMICS = {"finger": ("shoulder", -0.5, 0.2)}


def pinocchio_q(model, robot, q, mimics=MIMICS):
    """pinocchio's configuration for obbtree's `q` (see the module docstring); `mimics`: name
    -> (leader, multiplier, offset)."""
    at = {name: k for k, name in enumerate(robot.values)}
    out = pin.neutral(model)
    for jid in range(1, model.njoints):
        name, joint = model.names[jid], model.joints[jid]
        i, kind = joint.idx_q, joint.shortname()
        if kind == "JointModelFreeFlyer":
            out[i : i + 7] = [q[at[f"{name}/{v}"]] for v in FLOATING]
        elif kind == "JointModelPlanar":
            theta = q[at[f"{name}/theta"]]
            out[i : i + 4] = [q[at[f"{name}/x"]], q[at[f"{name}/y"]], np.cos(theta), np.sin(theta)]
        elif name in mimics:
            leader, multiplier, offset = mimics[name]
            out[i] = multiplier * q[at[leader]] + offset
        elif joint.nq == 2:  # continuous
            out[i : i + 2] = [np.cos(q[at[name]]), np.sin(q[at[name]])]
        else:
            out[i] = q[at[name]]
    return out


def random_configuration(rng, robot):
    """Values within their limits, those without limits in [-2, 2] (angles in [-3, 3]); the
    first joint's quaternion a random unit one."""
    lower, upper = robot.limits.T
    q = rng.uniform(np.maximum(lower, -2.0), np.minimum(upper, 2.0))
    quaternion = rng.normal(size=4)
    q[3:7] = quaternion / np.linalg.norm(quaternion)
    for name in ("glide/theta", "spin", "slide/theta"):
        if name in robot.values:
            q[robot.values.index(name)] = rng.uniform(-3.0, 3.0)
    return q


def assert_poses_match_pinocchio(robot, urdf, cases, mimics):
    """`robot.link_poses` against pinocchio's frames of the links, at `cases` seeded random
    configurations (the first neutral)."""
    model = pin.buildModelFromUrdf(str(urdf))
    data = model.createData()
    rng = np.random.default_rng(SEED)
    for case in range(cases):
        q = robot.neutral if case == 0 else random_configuration(rng, robot)
        poses = robot.link_poses(q)
        assert poses.shape == (len(robot.links), 4, 4)
        pin.framesForwardKinematics(model, data, pinocchio_q(model, robot, q, mimics))
        for k, link in enumerate(robot.links):
            want = data.oMf[model.getFrameId(link, pin.BODY)].homogeneous
            np.testing.assert_allclose(poses[k], want, rtol=0, atol=1e-12, err_msg=f"{link} at {q}")


def test_pinocchio_reads_floating_and_planar_joints_as_free_flyer_and_planar(urdf):
    model = pin.buildModelFromUrdf(str(urdf))
    kinds = {model.names[j]: model.joints[j].shortname() for j in range(1, model.njoints)}
    assert kinds["free"] == "JointModelFreeFlyer"
    assert kinds["slide"] == kinds["glide"] == "JointModelPlanar"


def test_values_limits_and_neutral(rover):
    assert rover.joints == ["free", "shoulder", "glide", "spin", "slide"]
    assert rover.values == VALUES
    limits = rover.limits
    assert limits.shape == (len(VALUES), 2) and limits.dtype == np.float64
    for k, name in enumerate(VALUES):
        want = [-3.0, 3.0] if name == "shoulder" else [-np.inf, np.inf]
        np.testing.assert_array_equal(limits[k], want, err_msg=name)
    neutral = np.zeros(len(VALUES))
    neutral[VALUES.index("free/rot_w")] = 1.0
    np.testing.assert_array_equal(rover.neutral, neutral)


def test_link_poses_match_pinocchio(urdf, rover):
    assert_poses_match_pinocchio(rover, urdf, 200, MIMICS)


def test_a_shipped_robot_on_its_floating_base_matches_pinocchio(tmp_path):
    """example-robot-data's g1 ships with its floating base joint commented out (for MuJoCo);
    uncommented, its 29 revolute joints ride on a floating joint."""
    share = coal_compare.share_dir()
    robots = share / "example-robot-data" / "robots"
    text = (robots / "g1_description" / "urdf" / "g1_29dof_rev_1_0.urdf").read_text()
    live = text.replace('<!-- <link name="world"></link>', '<link name="world"></link>')
    live = live.replace("</joint> -->", "</joint>", 1)
    assert live.count('type="floating"') == 1 and "<!-- <link" not in live
    urdf = tmp_path / "g1_floating.urdf"
    urdf.write_text(live)
    g1 = obbtree.Robot(urdf, package_dirs=[share])
    assert g1.joints[0] == "floating_base_joint" and len(g1.values) == 7 + 29
    assert_poses_match_pinocchio(g1, urdf, 30, {})


def test_bad_configurations_name_the_joint_and_the_value(rover):
    q = rover.neutral
    with pytest.raises(obbtree.RobotError, match=rf"q: expected an array of shape \({len(VALUES)},\)"):
        rover.link_poses(q[:-1])
    nan = q.copy()
    nan[4] = np.nan
    with pytest.raises(obbtree.RobotError, match=r'the value of joint "free" \(q\[4\], free/rot_y\) is NaN'):
        rover.collide_self(nan)
    with pytest.raises(obbtree.RobotError, match=r'the value of joint "spin" \(qs\[1\]\[11\]\) is inf'):
        spin = q.copy()
        spin[11] = np.inf
        rover.collides_many([q, spin])
    for quaternion in ([0, 0, 0, 0], [0, 0, 0, 2], [0.3, 0.2, 0.1, 0.0]):
        bad = q.copy()
        bad[3:7] = quaternion
        with pytest.raises(obbtree.RobotError, match=r'q: .*rover.urdf: joint "free": the quaternion'):
            rover.link_poses(bad)
    with pytest.raises(obbtree.RobotError, match=r"path: configuration 1: .*joint \"free\": the quaternion"):
        rover.check_path([q, np.where(np.arange(len(q)) == 6, 3.0, q)], 0.1)
    # Within the tolerance: normalised.
    near = q.copy()
    near[3:7] = [0, 0, 0.7071, 0.7071]
    unit = q.copy()
    unit[3:7] = [0, 0, np.sqrt(0.5), np.sqrt(0.5)]
    np.testing.assert_allclose(rover.link_poses(near), rover.link_poses(unit), rtol=0, atol=1e-15)


def test_paths_turn_floating_joints_within_the_resolution(rover):
    start = rover.neutral
    end = start.copy()
    end[3:7] = [0, 0, 1, 0]  # a half turn about z
    found = rover.check_path([start, end], 0.5)
    assert found.first_collision is None and found.checked == 1 + 7

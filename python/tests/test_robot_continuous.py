"""`Robot.check_path(..., continuous=True)`: a thin plate that sampling at 0.02 rad steps over
is found, its first contact bracketed in the segment (`first_collision_t`), the configuration
at the bracket's end touching and every sample up to its start clear; a path starting in
collision gives `(0, 0)`; a free path gives no bracket; bad argument mixes are refused.
"""

import numpy as np
import pytest

import obbtree

# An arm turning about z: a box 0.5 m long, 1 mm thick and 2 cm tall, from 0.05 m to 0.55 m.
SWING = """<robot name="swing">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.3 0 0"/><geometry><box size="0.5 0.001 0.02"/></geometry></collision></link>
  <joint name="turn" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
</robot>"""


@pytest.fixture
def swing(tmp_path):
    urdf = tmp_path / "swing.urdf"
    urdf.write_text(SWING)
    return obbtree.Robot(urdf)


def plate_at(angle):
    """A scene with a plate 1 mm thick standing radially from 0.3 m to 0.5 m at `angle`."""
    pose = np.eye(4)
    c, s = np.cos(angle), np.sin(angle)
    pose[:2, :2] = [[c, -s], [s, c]]
    pose[:2, 3] = [0.4 * c, 0.4 * s]
    scene = obbtree.Scene()
    scene.insert("plate", obbtree.Model.box([0.2, 0.001, 0.1]), pose)
    return scene


def test_a_thin_plate_sampling_misses_is_bracketed(swing):
    scene = plate_at(0.51)
    path = [[0.0], [1.0]]
    assert swing.check_path(path, 0.02, scene=scene).first_collision is None
    found = swing.check_path(path, scene=scene, continuous=True)
    assert found.first_collision == 0 and found.checked == 1
    lo, hi = found.first_collision_t
    assert 0.505 < lo <= hi < 0.51 and hi - lo < 1e-5
    np.testing.assert_allclose(found.configuration, [hi], rtol=0, atol=1e-15)
    assert found.environment == [("arm", "plate")]
    assert swing.collide_scene([hi], scene) == [("arm", "plate")]
    clear = np.append(np.arange(0.0, lo, 1e-4), lo)
    assert not swing.collides_many(clear[:, None], scene).any()
    # A looser tolerance is taken; a bad one refused.
    loose = swing.check_path(path, scene=scene, continuous=True, tolerance=1e-3)
    assert loose.first_collision == 0
    with pytest.raises(obbtree.RobotError, match="tolerance"):
        swing.check_path(path, scene=scene, continuous=True, tolerance=0.0)


def test_starting_in_collision_and_free_paths(swing):
    found = swing.check_path([[0.0], [1.0]], scene=plate_at(0.0), continuous=True)
    assert (found.first_collision, found.first_collision_t) == (0, (0.0, 0.0))
    free = swing.check_path([[0.0], [0.3], [0.0]], scene=plate_at(1.0), continuous=True)
    assert free.first_collision is None and free.first_collision_t is None
    assert free.checked == 3
    assert swing.check_path([[0.0], [0.3]], 0.1).first_collision_t is None


def test_argument_mixes_are_refused(swing):
    path = [[0.0], [1.0]]
    with pytest.raises(obbtree.Error, match="resolution"):
        swing.check_path(path)
    with pytest.raises(obbtree.Error, match="resolution"):
        swing.check_path(path, 0.1, continuous=True)
    with pytest.raises(obbtree.Error, match="margin"):
        swing.check_path(path, continuous=True, margin=0.1)
    with pytest.raises(obbtree.Error, match="tolerance"):
        swing.check_path(path, 0.1, tolerance=1e-6)

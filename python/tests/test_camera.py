"""The camera against formulas of its own (gluLookAt and gluPerspective written out in NumPy;
points along a pixel's ray projecting back onto the pixel's centre), and pick_pixel against
casting the camera's ray with cast_rays."""

import math
import pickle

import numpy as np
import pytest

import obbtree
from conftest import rotation, translation


def glu_look_at(eye, target, up):
    f = (target - eye) / np.linalg.norm(target - eye)
    s = np.cross(f, up)
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def glu_perspective(fov_y, aspect, near, far):
    f = 1.0 / math.tan(fov_y / 2)
    return np.array([
        [f / aspect, 0, 0, 0],
        [0, f, 0, 0],
        [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
        [0, 0, -1, 0],
    ])


def framing(mesh, width=96, height=64):
    return obbtree.Camera.framing([mesh.vertices.min(0), mesh.vertices.max(0)], width, height)


def test_look_at_is_glu_look_at_and_glu_perspective():
    eye, target, up = np.array([3.0, 2.0, 7.0]), np.array([0.5, -1.0, 0.25]), np.array([0.0, 1.0, 0.2])
    camera = obbtree.Camera.look_at(eye, target, up, 0.7, 0.5, 40.0, 320, 200)
    np.testing.assert_allclose(camera.view, glu_look_at(eye, target, up), atol=1e-12)
    np.testing.assert_allclose(camera.projection, glu_perspective(0.7, 320 / 200, 0.5, 40.0), atol=1e-12)
    assert (camera.width, camera.height) == (320, 200) and repr(camera) == "obbtree.Camera(320x200 pixels)"


def test_pixel_rays_project_back_onto_their_pixels(bunny):
    camera = framing(bunny, 320, 200)
    vp = camera.view_projection
    rng = np.random.default_rng(5)
    for x, y in zip(rng.integers(0, 320, 40), rng.integers(0, 200, 40)):
        origin, direction = camera.pixel_ray(x, y)  # NumPy integers are pixel indices too
        assert abs(np.linalg.norm(direction) - 1.0) < 1e-12
        for t in (0.0, 0.5, 3.0):
            clip = vp @ np.append(origin + t * direction, 1.0)
            px, py = (clip[0] / clip[3] + 1) * 0.5 * 320, (1 - clip[1] / clip[3]) * 0.5 * 200
            assert abs(px - (x + 0.5)) < 1e-6 and abs(py - (y + 0.5)) < 1e-6
        near = vp @ np.append(origin, 1.0)
        assert abs(near[2] / near[3] + 1.0) < 1e-9  # the origin is on the near plane


@pytest.mark.parametrize("pose", [None, translation(0.5, -0.25, 1.0) @ rotation(1, 1)])
def test_pick_pixel_is_cast_rays_of_the_pixel_ray(bunny, pose):
    model = obbtree.Model(bunny)
    camera = framing(bunny, 48, 32)
    pixels = [(x, y) for x in range(0, 48, 2) for y in range(0, 32, 2)]
    rays = [camera.pixel_ray(x, y) for x, y in pixels]
    origins, directions = np.array([o for o, _ in rays]), np.array([d for _, d in rays])
    hit, triangle, t, points = obbtree.cast_rays(model, origins, directions, pose=pose)
    assert 20 < hit.sum() < len(pixels) - 20
    for k, (x, y) in enumerate(pixels):
        picked = obbtree.pick_pixel(model, camera, x, y, pose=pose)
        if not hit[k]:
            assert picked is None, (x, y)
            continue
        assert picked[0] == triangle[k] and picked[1] == t[k], (x, y)
        np.testing.assert_array_equal(picked[2], points[k])


def test_cameras_rebuild_from_their_matrices_and_pickle(bunny):
    camera = framing(bunny)
    for again in (obbtree.Camera(camera.view, camera.projection, camera.width, camera.height),
                  pickle.loads(pickle.dumps(camera))):
        for pixel in ((0, 0), (95, 63), (40, 21)):
            for a, b in zip(again.pixel_ray(*pixel), camera.pixel_ray(*pixel)):
                np.testing.assert_array_equal(a, b)


def look_at(**changed):
    arguments = dict(eye=[0, 0, 5], target=[0, 0, 0], up=[0, 1, 0], fov_y=0.8, near=1.0, far=10.0,
                     width=64, height=48)
    arguments.update(changed)
    return lambda: obbtree.Camera.look_at(**arguments)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (look_at(width=0), obbtree.CameraError, "width: must be from 1 to 2^32 - 1 pixels, not 0"),
        (look_at(height=-3), obbtree.CameraError, "height: must be from 1 to 2^32 - 1 pixels, not -3"),
        (look_at(width=2**80), obbtree.CameraError, "width: 1208925819614629174706176 is out of range"),
        (look_at(width=64.0), TypeError, "width: expected an integer, got float"),
        (look_at(target=[0, 0, 5]), obbtree.CameraError, "target: equals eye"),
        (look_at(up=[0, 0, 2]), obbtree.CameraError, "up: is zero or parallel to the viewing direction"),
        (look_at(eye=[0, np.nan, 5]), obbtree.CameraError, "eye: coordinates must be finite"),
        (look_at(eye=[0, 5]), obbtree.CameraError, "eye: expected an array of shape (3,)"),
        (look_at(fov_y=math.pi), obbtree.CameraError, "fov_y: must be between 0 and pi radians"),
        (look_at(near=0.0), obbtree.CameraError, "near: must be a positive finite number, not 0"),
        (look_at(far=1.0), obbtree.CameraError, "far: must lie beyond near (1) by more than its rounding"),
        (look_at(far=math.inf), obbtree.CameraError, "far: must be a positive finite number, not inf"),
        (lambda: obbtree.Camera(np.eye(4), np.zeros((4, 4)), 4, 4), obbtree.CameraError, "view/projection: the camera is degenerate"),
        (lambda: obbtree.Camera(np.eye(4), np.full((4, 4), np.inf), 4, 4), obbtree.CameraError, "projection: entries must be finite, not inf"),
        (lambda: obbtree.Camera(np.eye(3), np.eye(4), 4, 4), obbtree.CameraError, "view: expected an array of shape (4, 4)"),
        (lambda: obbtree.Camera.framing([[0, 0, 0], [0, 0, 0]], 4, 4), obbtree.CameraError, "bounds: the box's half-diagonal must be from 1e-15"),
        (lambda: obbtree.Camera.framing([[1, 0, 0], [0, 1, 1]], 4, 4), obbtree.CameraError, "bounds: expected finite corners"),
        (lambda: obbtree.Camera.framing([0, 0, 0], 4, 4), obbtree.CameraError, "bounds: expected an array of shape (2, 3)"),
    ],
)
def test_bad_cameras_are_refused_naming_the_argument(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message), str(raised.value)


def test_bad_pixels_are_refused_naming_the_argument(bunny):
    model, camera = obbtree.Model(bunny), framing(bunny, 64, 48)
    cases = [
        ((64, 0), obbtree.CameraError, "x: pixel (64, 0) is outside the 64x48 image"),
        ((-1, 0), obbtree.CameraError, "x: pixel (-1, 0) is outside the 64x48 image"),
        ((0, 48), obbtree.CameraError, "y: pixel (0, 48) is outside the 64x48 image"),
        ((0.5, 0), TypeError, "x: expected an integer, got float"),
        ((0, None), TypeError, "y: expected an integer, got NoneType"),
    ]
    for (x, y), error, message in cases:
        for call in (lambda: camera.pixel_ray(x, y), lambda: obbtree.pick_pixel(model, camera, x, y)):
            with pytest.raises(error) as raised:
                call()
            assert str(raised.value).startswith(message), str(raised.value)
    with pytest.raises(obbtree.QueryError, match="^pose: the mesh's pose translates by"):
        obbtree.pick_pixel(model, camera, 0, 0, pose=translation(1e300, 0, 0))
    with pytest.raises(obbtree.PoseError, match="^pose: "):
        obbtree.pick_pixel(model, camera, 0, 0, pose=np.eye(4) * 2)

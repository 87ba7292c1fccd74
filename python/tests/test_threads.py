"""Concurrent use from Python threads of shared models, scenes and managers: every thread gets
the answers a lone caller gets (the queries release the GIL, so the threads do overlap)."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import obbtree
from conftest import as_trimesh, rotation, translation
from obbtree.trimesh import CollisionManager


def poses(count, seed):
    rng = np.random.default_rng(seed)
    out = np.stack([np.eye(4)] * count)
    for k in range(count):
        out[k] = translation(*rng.uniform(-0.5, 0.5, 3)) @ rotation(k % 3, k)
    return out


def test_shared_models_from_many_threads(bunny, teapot):
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    batch = poses(24, seed=1)
    rng = np.random.default_rng(2)
    origins = rng.uniform(-20, 20, (2000, 3))
    directions = -origins
    expected_pairs = [obbtree.collide(a, None, b, p, mode="all")[1] for p in batch]
    expected_rays = obbtree.cast_rays(a, origins, directions)

    def work(k):
        p = batch[k % len(batch)]
        pairs = obbtree.collide(a, None, b, p, mode="all")[1]
        rays = obbtree.cast_rays(a, origins, directions)
        many = obbtree.collide_many(a, None, b, batch, mode="first")[0]
        return k, pairs, rays, many

    with ThreadPoolExecutor(max_workers=8) as pool:
        for k, pairs, rays, many in pool.map(work, range(64)):
            np.testing.assert_array_equal(pairs, expected_pairs[k % len(batch)])
            for got, want in zip(rays, expected_rays):
                np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(many, [len(e) > 0 for e in expected_pairs])


def test_one_distance_tracker_shared_by_threads(bunny, teapot):
    """Threads taking turns on one tracker (each call starting where some other thread's
    stopped) get the cold answers."""
    a, b = obbtree.Model(bunny), obbtree.Model(teapot)
    batch = poses(16, seed=3)
    for k in range(len(batch)):
        batch[k] = translation(0.0, 0.0, 1.5 + 0.01 * k) @ batch[k]
    expected = [obbtree.distance(a, None, b, p).distance for p in batch]
    tracker = obbtree.DistanceTracker()

    def work(k):
        return k, tracker.distance(a, None, b, batch[k % len(batch)]).distance

    with ThreadPoolExecutor(max_workers=8) as pool:
        for k, got in pool.map(work, range(64)):
            want = expected[k % len(batch)]
            assert abs(got - want) <= 1e-12 * (1 + want), (k, got, want)


def test_shared_scene_moved_and_queried_from_many_threads(kuka):
    scene = obbtree.Scene()
    models = [obbtree.Model(m) for m in kuka]
    for i, m in enumerate(models):
        scene.insert(f"link{i}", m, translation(200.0 * i, 0, 0))
    probe = models[3]

    def work(k):
        name = f"link{k % 8}"
        scene.set_pose(name, translation(200.0 * (k % 8), 0, 0))
        touched = [n for n, _ in scene.collide_with(probe, translation(200.0 * (k % 8), 0, 0), mode="first")]
        assert touched == [name]
        assert scene.collide_all(mode="first") == []
        hit = scene.cast_ray([200.0 * (k % 8), 0.0, 1000.0], [0.0, 0.0, -1.0])
        return hit[0] if hit else None

    with ThreadPoolExecutor(max_workers=8) as pool:
        names = list(pool.map(work, range(48)))
    assert all(n is None or n.startswith("link") for n in names)
    assert len(scene) == 8


def test_two_scenes_against_each_other_from_both_sides(teapot):
    model = obbtree.Model(teapot)
    left, right = obbtree.Scene(), obbtree.Scene()
    for i in range(4):
        left.insert(f"l{i}", model, translation(40.0 * i, 0, 0))
        right.insert(f"r{i}", model, translation(40.0 * i, 0.5, 0))

    def work(k):
        if k % 2:
            return sorted((a, b) for a, b, _ in left.collide_scenes(right, mode="first"))
        return sorted((b, a) for a, b, _ in right.collide_scenes(left, mode="first"))

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(work, range(40)))
    assert all(a == [(f"l{i}", f"r{i}") for i in range(4)] for a in answers)


def test_shared_trimesh_manager(bunny, teapot):
    manager = CollisionManager()
    manager.add_object("bunny", as_trimesh(bunny))
    probe = as_trimesh(teapot)
    near, far = translation(0.015625, 0, 0), translation(100.0, 0, 0)

    def work(k):
        return manager.in_collision_single(probe, near if k % 2 else far, return_names=True)

    with ThreadPoolExecutor(max_workers=8) as pool:
        for k, answer in enumerate(pool.map(work, range(32))):
            assert answer == ((True, {"bunny"}) if k % 2 else (False, set()))


def test_culling_and_picking_from_many_threads(bunny):
    """cull and pick_pixel release the GIL for their work: threads sharing a model and a camera
    get the answers a lone caller gets."""
    model = obbtree.Model(bunny)
    camera = obbtree.Camera.look_at([2.0, 6.0, 12.0], [0.5, 4.0, 0.0], [0, 1, 0], 0.35, 8.0, 14.0, 64, 48)
    expected_cull = [a.tolist() for a in obbtree.cull(model, camera)]
    pixels = [(x, y) for x in range(0, 64, 4) for y in range(0, 48, 4)]
    expected_picks = [obbtree.pick_pixel(model, camera, x, y) for x, y in pixels]
    assert any(p is not None for p in expected_picks)

    def work(k):
        culled = [a.tolist() for a in obbtree.cull(model, camera)]
        x, y = pixels[k % len(pixels)]
        return k, culled, obbtree.pick_pixel(model, camera, x, y)

    with ThreadPoolExecutor(max_workers=8) as pool:
        for k, culled, picked in pool.map(work, range(64)):
            assert culled == expected_cull
            want = expected_picks[k % len(pixels)]
            assert (picked is None) == (want is None)
            if want is not None:
                assert picked[:2] == want[:2]
                np.testing.assert_array_equal(picked[2], want[2])

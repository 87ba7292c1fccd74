//! `obbtree.Scene`: many named, posed models over the `obbtree-scene` crate's dynamic tree,
//! with its collision and ray queries. One lock per scene: queries run without the GIL, and
//! a scene is safe to share between Python threads.

use crate::arrays::{point, pose, poses};
use crate::collide::{contact_points, pair_array, request};
use crate::distance::point_array;
use crate::errors::{scene_error as refused, Area};
use crate::model::Model;
use crate::volumes::{with_scene, with_scene_model, with_scenes, AnyModel, AnyScene};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use obbtree::scene::ObjectDistance;
use obbtree::{CollisionResult, Pose, Ray, SceneError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// An object pair's distance as Python sees it: `(a, b, distance, pair, point_a, point_b)`.
type DistanceTuple<'py> = (
    String,
    String,
    f64,
    (u32, u32),
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// An object pair's distance, by names, before it becomes a Python tuple.
struct Apart {
    a: String,
    b: String,
    found: ObjectDistance,
}

impl Apart {
    fn of<V>(scene: &obbtree::scene::Scene<V>, found: ObjectDistance) -> Self {
        Self::across(scene, scene, found)
    }

    /// A pair of an object of `scene` (`a`) and one of `other` (`b`).
    fn across<V>(
        scene: &obbtree::scene::Scene<V>,
        other: &obbtree::scene::Scene<V>,
        found: ObjectDistance,
    ) -> Self {
        Self {
            a: scene.name(found.a).to_string(),
            b: other.name(found.b).to_string(),
            found,
        }
    }

    fn into_tuple(self, py: Python<'_>) -> DistanceTuple<'_> {
        let f = self.found;
        (
            self.a,
            self.b,
            f.distance,
            (f.pair[0], f.pair[1]),
            point_array(py, &f.point_a).into_any(),
            point_array(py, &f.point_b).into_any(),
        )
    }
}

/// An object's distance to a model outside the scene as Python sees it: `(name, distance,
/// (triangle of the model, triangle of the object), point on the model, point on the object)`.
type ExternalTuple<'py> = (
    String,
    f64,
    (u32, u32),
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// The tuple of the object `name` at `result` from an external model.
fn external_tuple<'py>(
    py: Python<'py>,
    name: String,
    result: &obbtree::DistanceResult,
) -> ExternalTuple<'py> {
    (
        name,
        result.distance,
        (result.pair[0], result.pair[1]),
        point_array(py, &result.point_a).into_any(),
        point_array(py, &result.point_b).into_any(),
    )
}

/// A ray's first hit on a scene as Python sees it: `(name, triangle, t, point)`.
type RayHitTuple<'py> = (String, i64, f64, Bound<'py, PyAny>);

/// A scene and the allowed pairs given to it (kept by name, for pickling).
struct State {
    scene: AnyScene,
    allowed: Vec<(String, String)>,
    /// Renewed whenever the objects may change ([`new_stamp`]): equal stamps mean the same
    /// scene with the same objects, names, models and poses.
    stamp: u64,
}

/// A number no scene has had as its stamp: one counter for all scenes, so that a stamp names
/// one scene in one state, even after the scene is dropped and another takes its address.
fn new_stamp() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// One touching pair as the queries report it: names, the exact answer, and the pose of the
/// first object (whose frame the contact segments are in).
struct Touching {
    a: String,
    b: String,
    result: CollisionResult,
    pose_a: Pose,
}

/// Many named objects, each a model at a pose, queried together: every touching pair
/// (`collide_all`), an external model against the scene (`collide_with`), two scenes
/// (`collide_scenes`) and rays (`cast_ray`). Answers are the exact engine's; pairs whose
/// objects did not move are answered from the last query.
///
/// >>> import numpy as np, obbtree
/// >>> tri = obbtree.Model(obbtree.Mesh(np.eye(3), [[0, 1, 2]]))
/// >>> scene = obbtree.Scene()
/// >>> scene.insert("a", tri); scene.insert("b", tri)
/// >>> [(a, b) for a, b, pairs in scene.collide_all()]
/// [('a', 'b')]
#[pyclass(name = "Scene", module = "obbtree", frozen)]
pub struct PyScene {
    state: Mutex<State>,
}

fn scene_error(error: SceneError) -> PyErr {
    refused("scene", error)
}

impl PyScene {
    /// The scene, locked. A panic cannot poison it: the engine returns errors instead.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The scene, locked to change its objects (insert, remove, move, allow): its stamp is
    /// renewed.
    fn lock_to_change(&self) -> MutexGuard<'_, State> {
        let mut state = self.lock();
        state.stamp = new_stamp();
        state
    }

    /// Runs `read` on the scene, locked, and its stamp: what a copy of the objects made now
    /// stays equal to until the stamp changes.
    pub(crate) fn read_stamped<R>(&self, read: impl FnOnce(u64, &AnyScene) -> R) -> R {
        let state = self.lock();
        read(state.stamp, &state.scene)
    }
}

/// The Python form of touching pairs: `(a, b, pairs)` tuples, or `(a, b, pairs, points)`;
/// without the first name when `named_a` is false.
fn touching_list<'py>(
    py: Python<'py>,
    found: Vec<Touching>,
    contacts: bool,
    named_a: bool,
) -> PyResult<Bound<'py, PyList>> {
    let items = found
        .into_iter()
        .map(|t| {
            let mut fields = Vec::with_capacity(4);
            if named_a {
                fields.push(t.a.into_pyobject(py)?.into_any());
            }
            fields.push(t.b.into_pyobject(py)?.into_any());
            fields.push(pair_array(py, &t.result.pairs).into_any());
            if contacts {
                fields.push(contact_points(py, &t.result, &t.pose_a).into_any());
            }
            PyTuple::new(py, fields)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

#[pymethods]
impl PyScene {
    /// An empty scene of models of volume type `bv` (every model inserted must have it).
    #[new]
    #[pyo3(signature = (bv = "obb"))]
    fn new(bv: &str) -> PyResult<Self> {
        Ok(Self {
            state: Mutex::new(State {
                scene: AnyScene::new(bv)?,
                allowed: Vec::new(),
                stamp: new_stamp(),
            }),
        })
    }

    /// The volume type of the scene's models.
    #[getter]
    fn bv(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.lock().scene.volume())
    }

    /// Adds `model` at `pose` (`(4, 4)`, `None`: identity) under the unique `name`.
    #[pyo3(signature = (name, model, pose = None))]
    fn insert(
        &self,
        py: Python<'_>,
        name: String,
        model: PyRef<'_, Model>,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let placed = self::pose(pose, "pose")?;
        let model = model.inner.clone();
        py.detach(|| {
            let mut state = self.lock_to_change();
            with_scene_model!(&mut state.scene, model, |s, m| s
                .insert(name, m, placed)
                .map(drop)
                .map_err(scene_error))
        })
    }

    /// Removes the object `name`; its allowed pairs go with it.
    fn remove(&self, py: Python<'_>, name: String) -> PyResult<()> {
        py.detach(|| {
            let mut state = self.lock_to_change();
            state.allowed.retain(|(a, b)| *a != name && *b != name);
            with_scene!(&mut state.scene, |s| s
                .lookup(&name)
                .and_then(|id| s.remove(id))
                .map(drop)
                .map_err(scene_error))
        })
    }

    /// Moves the object `name` to `pose` (`(4, 4)`).
    fn set_pose(&self, name: String, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let placed = self::pose(Some(pose), "pose")?;
        // A lookup and a broad-phase update: shorter than releasing the GIL would take.
        with_scene!(&mut self.lock_to_change().scene, |s| s
            .lookup(&name)
            .and_then(|id| s.set_pose(id, placed))
            .map_err(scene_error))
    }

    /// Moves the objects `names[i]` to `poses[i]` (`(k, 4, 4)`); on an unknown name nothing moves.
    fn set_poses(
        &self,
        py: Python<'_>,
        names: Vec<String>,
        poses: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let batch = self::poses(poses, "poses")?;
        if batch.len() != names.len() {
            return Err(refused(
                "poses",
                format!(
                    "{} poses for {} names: one pose per name",
                    batch.len(),
                    names.len()
                ),
            ));
        }
        py.detach(|| {
            with_scene!(&mut self.lock_to_change().scene, |s| {
                let ids = names
                    .iter()
                    .map(|n| s.lookup(n))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(scene_error)?;
                let updates: Vec<_> = ids.into_iter().zip(batch).collect();
                s.set_poses(&updates).map_err(scene_error)
            })
        })
    }

    /// The pose of the object `name`, `(4, 4)`.
    fn pose<'py>(&self, py: Python<'py>, name: String) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let placed = py.detach(|| {
            with_scene!(&self.lock().scene, |s| s
                .lookup(&name)
                .map(|id| *s.get(id).expect("looked up").pose())
                .map_err(scene_error))
        })?;
        let m = placed.to_homogeneous();
        Ok(Array2::from_shape_fn((4, 4), |(i, j)| m[(i, j)]).into_pyarray(py))
    }

    /// How the last query answered its object pairs: `candidates` (bounds met), `reused`
    /// (neither object moved), `witnessed` (last witness pair still intersects), `separated`
    /// (last separating plane still separates), `hinted` (distance measured from the pair's
    /// last closest triangles), `queried` (the full exact query ran).
    fn last_stats(&self) -> std::collections::BTreeMap<&'static str, usize> {
        let stats = with_scene!(&self.lock().scene, |s| s.last_stats());
        [
            ("candidates", stats.candidates),
            ("reused", stats.reused),
            ("witnessed", stats.witnessed),
            ("separated", stats.separated),
            ("hinted", stats.hinted),
            ("queried", stats.queried),
        ]
        .into_iter()
        .collect()
    }

    /// The objects' names, sorted.
    fn names(&self, py: Python<'_>) -> Vec<String> {
        let mut names: Vec<String> = py.detach(|| {
            with_scene!(&self.lock().scene, |s| s
                .objects()
                .map(|(_, o)| o.name().to_string())
                .collect())
        });
        names.sort();
        names
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        py.detach(|| with_scene!(&self.lock().scene, |s| s.len()))
    }

    fn __contains__(&self, py: Python<'_>, name: String) -> bool {
        py.detach(|| with_scene!(&self.lock().scene, |s| s.id(&name).is_some()))
    }

    /// Never check the pair of objects `a`, `b` (parts that touch by design).
    fn allow(&self, py: Python<'_>, a: String, b: String) -> PyResult<()> {
        py.detach(|| {
            let mut state = self.lock_to_change();
            with_scene!(&mut state.scene, |s| s
                .allow_names(&a, &b)
                .map_err(scene_error))?;
            state.allowed.push((a, b));
            Ok(())
        })
    }

    /// Every pair of objects that touch, sorted by name: `(a, b, pairs)` with `pairs` an
    /// `(p, 2)` int64 array of `[triangle of a, triangle of b]` (every pair with `mode="all"`,
    /// the default; one witness with `mode="first"`); with `contacts=True`,
    /// `(a, b, pairs, points)` (see `collide`).
    #[pyo3(signature = (mode = "all", contacts = false))]
    fn collide_all<'py>(
        &self,
        py: Python<'py>,
        mode: &str,
        contacts: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let request = request(mode, contacts)?;
        let found = py.detach(|| {
            with_scene!(&mut self.lock().scene, |s| {
                let found = s.collide_all(&request).map_err(scene_error)?;
                Ok::<_, PyErr>(
                    found
                        .into_iter()
                        .map(|c| Touching {
                            a: s.name(c.a).to_string(),
                            b: s.name(c.b).to_string(),
                            pose_a: *s.get(c.a).expect("reported").pose(),
                            result: c.result,
                        })
                        .collect(),
                )
            })
        })?;
        touching_list(py, found, contacts, true)
    }

    /// The closest pair of objects (allowed pairs skipped): `(a, b, distance, pair, point_a,
    /// point_b)` with `a` before `b` by name, `pair` the closest `(triangle of a, triangle of
    /// b)` and the points `(3,)` arrays in the world frame; `None` with fewer than two
    /// objects. Ties go to the first pair by names. With `limit`, only a pair at most `limit`
    /// apart (else `None`), which is cheaper: pairs further apart are never measured.
    ///
    /// >>> import numpy as np, obbtree
    /// >>> tri = obbtree.Model(obbtree.Mesh(np.eye(3), [[0, 1, 2]]))
    /// >>> scene = obbtree.Scene()
    /// >>> up = np.eye(4); up[2, 3] = 2.0
    /// >>> scene.insert("a", tri); scene.insert("b", tri, up)
    /// >>> a, b, d, pair, pa, pb = scene.min_distance()
    /// >>> (a, b, round(d, 6), pair)
    /// ('a', 'b', 1.224745, (0, 0))
    #[pyo3(signature = (limit = f64::INFINITY))]
    fn min_distance<'py>(
        &self,
        py: Python<'py>,
        limit: f64,
    ) -> PyResult<Option<DistanceTuple<'py>>> {
        if limit.is_nan() || limit < 0.0 {
            let reason = format!("must be a non-negative number (or inf), not {limit}");
            return Err(refused("limit", reason));
        }
        let found = py.detach(|| {
            with_scene!(&mut self.lock().scene, |s| s
                .min_distance_within(limit)
                .map(|found| found.map(|f| Apart::of(s, f))))
        });
        let found = found.map_err(|e| refused("limit", e))?;
        Ok(found.map(|f| f.into_tuple(py)))
    }

    /// Every pair of objects at most `margin` apart (decided exactly), sorted by names, as
    /// `min_distance` gives a pair.
    fn within_margin_all<'py>(
        &self,
        py: Python<'py>,
        margin: f64,
    ) -> PyResult<Vec<DistanceTuple<'py>>> {
        let found = py.detach(|| {
            with_scene!(&mut self.lock().scene, |s| s.within_margin_all(margin).map(
                |found| found
                    .into_iter()
                    .map(|f| Apart::of(s, f))
                    .collect::<Vec<_>>()
            ))
        });
        let found = found.map_err(|e| refused("margin", e))?;
        Ok(found.into_iter().map(|f| f.into_tuple(py)).collect())
    }

    /// The objects that `model` at `pose` touches, sorted by name: `(name, pairs)` with `pairs`
    /// `[triangle of model, triangle of the object]` (as `collide_all`'s, by `mode`); with
    /// `contacts=True`, `(name, pairs, points)`.
    #[pyo3(signature = (model, pose = None, mode = "all", contacts = false))]
    fn collide_with<'py>(
        &self,
        py: Python<'py>,
        model: PyRef<'py, Model>,
        pose: Option<&Bound<'py, PyAny>>,
        mode: &str,
        contacts: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let placed = self::pose(pose, "pose")?;
        let request = request(mode, contacts)?;
        let model: AnyModel = model.inner.clone();
        let found = py.detach(|| {
            with_scene_model!(&self.lock().scene, &model, |s, m| {
                let found = s.collide_with(m, &placed, &request).map_err(scene_error)?;
                Ok(found
                    .into_iter()
                    .map(|c| Touching {
                        a: String::new(),
                        b: s.name(c.object).to_string(),
                        pose_a: placed,
                        result: c.result,
                    })
                    .collect::<Vec<_>>())
            })
        })?;
        touching_list(py, found, contacts, false)
    }

    /// The object nearest `model` at `pose`, if one is at most `limit` away: `None` or
    /// `(name, distance, pair, point_model, point_object)`, `pair` being `(triangle of model,
    /// triangle of the object)` and the points in the world frame. Ties go to the first name.
    /// The scene's groups and allowed pairs do not apply (the model is not an object of it).
    #[pyo3(signature = (model, pose = None, limit = f64::INFINITY))]
    fn min_distance_to<'py>(
        &self,
        py: Python<'py>,
        model: PyRef<'py, Model>,
        pose: Option<&Bound<'py, PyAny>>,
        limit: f64,
    ) -> PyResult<Option<ExternalTuple<'py>>> {
        let placed = self::pose(pose, "pose")?;
        let model: AnyModel = model.inner.clone();
        let found = py.detach(|| {
            with_scene_model!(&self.lock().scene, &model, |s, m| s
                .min_distance_to(m, &placed, limit)
                .map(|found| found.map(|f| (s.name(f.object).to_string(), f.result)))
                .map_err(|e| refused("limit", e)))
        })?;
        Ok(found.map(|(name, r)| external_tuple(py, name, &r)))
    }

    /// Every object at most `margin` from `model` at `pose` (decided exactly), sorted by name,
    /// each as `min_distance_to` gives it.
    #[pyo3(signature = (model, margin, pose = None))]
    fn within_margin_of<'py>(
        &self,
        py: Python<'py>,
        model: PyRef<'py, Model>,
        margin: f64,
        pose: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<ExternalTuple<'py>>> {
        let placed = self::pose(pose, "pose")?;
        let model: AnyModel = model.inner.clone();
        let found = py.detach(|| {
            with_scene_model!(&self.lock().scene, &model, |s, m| s
                .within_margin_of(m, &placed, margin)
                .map(|found| found
                    .into_iter()
                    .map(|f| (s.name(f.object).to_string(), f.result))
                    .collect::<Vec<_>>())
                .map_err(|e| refused("margin", e)))
        })?;
        Ok(found
            .into_iter()
            .map(|(name, r)| external_tuple(py, name, &r))
            .collect())
    }

    /// The object nearest the object `name` (groups and allowed pairs apply), if one is at
    /// most `limit` away: `None` or the pair as `min_distance` gives it (names sorted).
    #[pyo3(signature = (name, limit = f64::INFINITY))]
    fn min_distance_from<'py>(
        &self,
        py: Python<'py>,
        name: String,
        limit: f64,
    ) -> PyResult<Option<DistanceTuple<'py>>> {
        let found = py.detach(|| {
            with_scene!(&self.lock().scene, |s| s
                .lookup(&name)
                .and_then(|id| s.min_distance_from(id, limit))
                .map(|found| found.map(|f| Apart::of(s, f))))
        });
        let found = found.map_err(scene_error)?;
        Ok(found.map(|f| f.into_tuple(py)))
    }

    /// The closest pair of an object of this scene (`a`) and one of `other` (`b`), if one is at
    /// most `limit` apart: `None` or `(a, b, distance, pair, point_a, point_b)`. The groups
    /// apply across the scenes.
    #[pyo3(signature = (other, limit = f64::INFINITY))]
    fn min_distance_scenes<'py>(
        &self,
        py: Python<'py>,
        other: PyRef<'py, PyScene>,
        limit: f64,
    ) -> PyResult<Option<DistanceTuple<'py>>> {
        let other: &PyScene = &other;
        let found = py.detach(|| {
            self.with_both(other, |x, y| {
                with_scenes!(x, y, |s, t| s
                    .min_distance_scenes(t, limit)
                    .map(|found| found.map(|f| Apart::across(s, t, f)))
                    .map_err(|e| refused("limit", e)))
            })
        })?;
        Ok(found.map(|f| f.into_tuple(py)))
    }

    /// Every pair of an object of this scene and one of `other` at most `margin` apart
    /// (decided exactly), sorted by names, each as `min_distance_scenes` gives it.
    fn within_margin_scenes<'py>(
        &self,
        py: Python<'py>,
        other: PyRef<'py, PyScene>,
        margin: f64,
    ) -> PyResult<Vec<DistanceTuple<'py>>> {
        let other: &PyScene = &other;
        let found = py.detach(|| {
            self.with_both(other, |x, y| {
                with_scenes!(x, y, |s, t| s
                    .within_margin_scenes(t, margin)
                    .map(|found| found
                        .into_iter()
                        .map(|f| Apart::across(s, t, f))
                        .collect::<Vec<_>>())
                    .map_err(|e| refused("margin", e)))
            })
        })?;
        Ok(found.into_iter().map(|f| f.into_tuple(py)).collect())
    }

    /// The pairs of an object of this scene (`a`) and one of `other` (`b`) that touch, as
    /// `collide_all` reports them.
    #[pyo3(signature = (other, mode = "all", contacts = false))]
    fn collide_scenes<'py>(
        &self,
        py: Python<'py>,
        other: PyRef<'py, PyScene>,
        mode: &str,
        contacts: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let request = request(mode, contacts)?;
        let other: &PyScene = &other;
        let found = py.detach(|| {
            let run = |x: &AnyScene, y: &AnyScene| {
                with_scenes!(x, y, |s, t| {
                    let found = s.collide_scenes(t, &request).map_err(scene_error)?;
                    Ok(found
                        .into_iter()
                        .map(|c| Touching {
                            a: s.name(c.a).to_string(),
                            b: t.name(c.b).to_string(),
                            pose_a: *s.get(c.a).expect("reported").pose(),
                            result: c.result,
                        })
                        .collect::<Vec<_>>())
                })
            };
            self.with_both(other, run)
        })?;
        touching_list(py, found, contacts, true)
    }

    /// Deprecated: the former name of `collide_scenes` (same arguments and answers).
    #[pyo3(signature = (other, mode = "all", contacts = false))]
    fn collide_scene<'py>(
        &self,
        py: Python<'py>,
        other: PyRef<'py, PyScene>,
        mode: &str,
        contacts: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        crate::deprecated(py, "Scene.collide_scene", "Scene.collide_scenes")?;
        self.collide_scenes(py, other, mode, contacts)
    }

    /// The first hit of the ray `origin + t·direction`, `0 <= t <= max_t`, over all objects:
    /// `None` or `(name, triangle, t, point)`.
    #[pyo3(signature = (origin, direction, max_t = f64::INFINITY))]
    fn cast_ray<'py>(
        &self,
        py: Python<'py>,
        origin: &Bound<'py, PyAny>,
        direction: &Bound<'py, PyAny>,
        max_t: f64,
    ) -> PyResult<Option<RayHitTuple<'py>>> {
        let ray = Ray::new(
            point(origin, "origin", Area::Scene)?,
            point(direction, "direction", Area::Scene)?.coords,
        );
        let hit = py.detach(|| {
            with_scene!(&self.lock().scene, |s| s
                .cast_ray(&ray, max_t)
                .map(|h| h.map(|h| (s.name(h.object).to_string(), h.hit)))
                .map_err(scene_error))
        })?;
        hit.map(|(name, h)| {
            let p = vec![h.point.x, h.point.y, h.point.z]
                .into_pyarray(py)
                .into_any();
            Ok((name, i64::from(h.triangle), h.t, p))
        })
        .transpose()
    }

    /// Pickles as its volume type, its objects (name, model, pose) and its allowed pairs; the
    /// models carry their trees.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let this = slf.get();
        let (bv, objects, allowed) = {
            let state = this.lock();
            let objects: Vec<(String, AnyModel, Pose)> = with_scene!(&state.scene, |s| s
                .objects()
                .map(|(_, o)| (
                    o.name().to_string(),
                    AnyModel::from(o.model().clone()),
                    *o.pose()
                ))
                .collect());
            (state.scene.volume(), objects, state.allowed.clone())
        };
        let objects = objects
            .into_iter()
            .map(|(name, model, placed)| {
                let m = placed.to_homogeneous();
                let matrix = Array2::from_shape_fn((4, 4), |(i, j)| m[(i, j)]).into_pyarray(py);
                (name, Model { inner: model }, matrix)
            })
            .collect::<Vec<_>>();
        let restore = py.get_type::<PyScene>().getattr("_restore")?;
        Ok((
            restore,
            (bv, objects, allowed).into_pyobject(py)?.into_any(),
        ))
    }

    /// The scene of a pickle (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        bv: &str,
        objects: Vec<(String, PyRef<'_, Model>, Bound<'_, PyAny>)>,
        allowed: Vec<(String, String)>,
    ) -> PyResult<Self> {
        let scene = Self::new(bv)?;
        for (name, model, placed) in objects {
            scene.insert(py, name, model, Some(&placed))?;
        }
        for (a, b) in allowed {
            scene.allow(py, a, b)?;
        }
        Ok(scene)
    }
}

impl PyScene {
    /// Runs `run` on this scene's and `other`'s typed scenes, each locked once: two locks are
    /// always taken in address order, so no two threads can wait on each other.
    fn with_both<R>(&self, other: &PyScene, run: impl FnOnce(&AnyScene, &AnyScene) -> R) -> R {
        if std::ptr::eq(self, other) {
            let state = self.lock();
            return run(&state.scene, &state.scene);
        }
        let (first, second) = if (self as *const Self) < (other as *const Self) {
            (self, other)
        } else {
            (other, self)
        };
        let (g1, g2) = (first.lock(), second.lock());
        let (mine, theirs) = if std::ptr::eq(first, self) {
            (&g1, &g2)
        } else {
            (&g2, &g1)
        };
        run(&mine.scene, &theirs.scene)
    }
}

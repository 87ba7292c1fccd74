//! Scenes of many posed meshes: robots among fixtures, simulations with hundreds of moving
//! parts. A [`Scene`] holds objects — a shared [`Model`](obbtree_query::Model), a
//! [`Pose`](obbtree_bv::Pose), a unique name, a [`CollisionFilter`] — in a dynamic AABB tree
//! over their world bounds ([`obbtree_tree::DynamicTree`]), and answers the exact queries of
//! [`obbtree_query`] on all of them at once:
//!
//! * [`Scene::collide_all`]: every pair of objects that touch, with their triangle pairs or a
//!   witness; [`Scene::frame`] moves objects first;
//! * [`Scene::collide_with`]: one external model against the scene;
//! * [`Scene::collide_scenes`]: two scenes against each other;
//! * [`Scene::within_margin_all`] and [`Scene::min_distance`]: every object pair within a
//!   margin, and the closest object pair, with their closest triangles and points;
//! * [`Scene::within_margin_of`] and [`Scene::min_distance_to`]: the same against one external
//!   model; [`Scene::within_margin_scenes`] and [`Scene::min_distance_scenes`]: between two
//!   scenes;
//! * [`Scene::cast_ray`] and [`Scene::cast_ray_all`]: the first object and triangle a ray hits,
//!   and every hit (a shape object is hit on its surface, its feature 0).
//!
//! # Broad phase
//!
//! Each object's world bounds are its model's root volume (and mesh box) placed by its pose
//! and boxed, padded for rounding so that a pair whose boxes do not meet would be found
//! disjoint by the exact query too (`bounds.rs`). The tree stores the bounds fattened by a
//! margin (a tenth of the box's largest side by default) and stretched along the last motion,
//! so small motions do not touch the tree: [`Scene::set_pose`] is O(1) then and O(log n)
//! otherwise. The scene keeps the set of pairs whose fat boxes overlap and updates it from the
//! moved objects alone (`broad.rs`, Box2D's scheme). A pair reaches the exact query only if
//! the objects' tight bounds meet, their groups admit it, it is not on the allowed list
//! ([`Scene::allow`]) and the user's [`PairFilter`] does not veto it.
//!
//! # Temporal coherence
//!
//! [`Scene::collide_all`] remembers each checked pair's answer with the pose stamps of its two
//! objects. A pair neither of whose objects moved since the last call with the same request
//! takes that answer outright; in [`Mode::First`](obbtree_query::Mode::First), a moved pair
//! first tests its last witness triangle pair again with the exact triangle test, on the
//! triangles placed as the query places them; a moved pair found disjoint last time first
//! checks whether the plane that separated the meshes' convex hulls then still does, with a
//! slack that covers rounding ([`obbtree_query::separation`]). Warm answers equal cold ones (the tests check
//! it), except that a `First` answer may name another witness. See `coherence.rs`.
//!
//! The distance queries ([`Scene::within_margin_all`], [`Scene::min_distance`]) keep, in the
//! same record of the pair (one record per object pair, one map), the last distance and
//! margin decision with the same stamps, reused while neither object moves, and the last
//! closest triangle pair, which seeds the next measurement of a moved pair
//! ([`DistanceRequest::hint`](obbtree_query::DistanceRequest::hint), PQP's `last_tri`); the
//! closest-pair walk starts from the last closest pair, and a call on a scene in which
//! nothing changed since the last one at the same limit (no move, insertion, removal, filter,
//! allowed pair or pair filter set) takes its answer without walking. A pair filter is
//! assumed to give the same verdict on a pair while it is set. Every closest-pair query (within
//! the scene, to an external model, between scenes) runs through one driver over a source of
//! candidates in order of their box gaps (`distance.rs`). Decisions are exact
//! either way and distances meet the same guarantee; only which of several equally close
//! triangle pairs is named may differ (`distance.rs`).
//!
//! Collision and margin queries run their object pairs in parallel on rayon's pool
//! ([`Scene::collide_all`] once enough pairs need a query); the closest-pair walk measures its
//! pairs one after another, in order of their gap. Every query returns a [`SceneError`] naming
//! the objects involved rather than an answer it cannot vouch for.
//!
//! ```
//! use obbtree_bv::{Point, Pose, TriMesh};
//! use obbtree_query::{CollisionRequest, Model};
//! use obbtree_scene::Scene;
//!
//! // A unit square in the plane z = 0, as two triangles, shared by three objects.
//! let square = TriMesh::new(
//!     vec![
//!         Point::new(0.0, 0.0, 0.0),
//!         Point::new(1.0, 0.0, 0.0),
//!         Point::new(1.0, 1.0, 0.0),
//!         Point::new(0.0, 1.0, 0.0),
//!     ],
//!     vec![[0, 1, 2], [0, 2, 3]],
//! )?;
//! let model: Model = Model::new(square)?;
//! let upright = |x: f64| Pose::new([x, 0.0, -0.5], [std::f64::consts::FRAC_PI_2, 0.0, 0.0]);
//! let mut scene = Scene::new();
//! let floor = scene.insert("floor", model.clone(), Pose::identity())?;
//! let wall = scene.insert("wall", model.clone(), upright(0.5)?)?;
//! scene.insert("far", model, upright(5.0)?)?;
//! let contacts = scene.collide_all(&CollisionRequest::default())?;
//! assert_eq!(contacts.len(), 1);
//! assert_eq!((contacts[0].a, contacts[0].b), (floor, wall));
//! // Nothing moved: the next query reuses the answer.
//! assert_eq!(scene.collide_all(&CollisionRequest::default())?, contacts);
//! assert_eq!(scene.last_stats().reused, 1);
//! assert!(scene.insert("wall", scene.get(wall).unwrap().model().clone(), Pose::identity()).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bounds;
mod broad;
mod coherence;
mod collide;
mod distance;
mod driver;
mod error;
mod object;
mod ray;
mod scene;
mod sweep;

pub use collide::{ExternalContact, ObjectContact};
pub use distance::{ExternalDistance, ObjectDistance};
pub use error::SceneError;
pub use object::{Candidate, CollisionFilter, Object, ObjectId};
pub use ray::SceneHit;
pub use scene::{PairFilter, QueryStats, Scene, SMALL_SCENE};
pub use sweep::SweepHit;

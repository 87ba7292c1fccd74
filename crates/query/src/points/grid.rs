//! Signed distances on a regular grid of points (a signed distance field), using the grid's
//! coherence rather than one independent query per point:
//!
//! * each row of points (along z) is walked in order, each point's closest-triangle search
//!   seeded with its neighbour's triangle, which bounds it from the start (the distance moves
//!   by at most the spacing from one point to the next);
//! * on a closed mesh, one exact segment along the row decides the side of every point of it
//!   (`collide/containment.rs`: the parity of the crossings beyond each point), instead of a
//!   ray per point;
//! * on an open mesh, each point's side comes from its winding number against ½
//!   (`winding.rs`), carried along the row from the point before it while the winding number
//!   cannot reach ½ between them (see `open_row_sides`); a point whose side the bound cannot
//!   decide gets NaN, never a guess.
//!
//! Each value carries the guarantee of [`closest_points`](super::closest_points):
//! `|d − d*| ≤ 1e-12·(d* + L)`, 0 exactly on the surface, negative exactly inside.

use super::winding::{carried_along, estimate, gradient_bound, Bracket, Enough, ROOM};
use super::Side;
use crate::collide::containment::row_inside;
use crate::collide::PosedOverlap;
use crate::distance::{point_distance, point_distances, Packing, LANES};
use crate::error::{Operand, QueryError};
use crate::model::{MeshModel, Model};
use obbtree_bv::{Aabb, BoundingVolume, Point, MAX_COORDINATE};
use rayon::prelude::*;

/// A regular grid of points: `resolution[k]` points along axis `k`, evenly spaced from
/// `min[k]` to `max[k]` (both included; a single point sits at `min[k]`). Values over it are
/// stored in C order: point `(i, j, k)` at `(i·ny + j)·nz + k`, z fastest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// The corner with the least coordinates.
    pub min: Point,
    /// The corner with the greatest coordinates.
    pub max: Point,
    /// Points along x, y and z.
    pub resolution: [usize; 3],
}

impl Grid {
    /// The `n × n × n` grid over the cube centred on `bounds` whose side is the box's largest
    /// extent times `1 + 2·padding` (so the grid's spacing is the same on every axis, and a
    /// padding of 0.1 leaves a tenth of the extent on each side).
    pub fn cube_around(bounds: &Aabb, n: usize, padding: f64) -> Self {
        let half = (bounds.maxs - bounds.mins).amax() * (0.5 + padding);
        let center = bounds.center();
        Self {
            min: center.map(|c| c - half),
            max: center.map(|c| c + half),
            resolution: [n; 3],
        }
    }

    /// How many points the grid has.
    pub fn len(&self) -> usize {
        self.resolution.iter().product()
    }

    /// Whether the grid has no points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The point `(i, j, k)`.
    pub fn point(&self, [i, j, k]: [usize; 3]) -> Point {
        let at = |axis: usize, index: usize| {
            let n = self.resolution[axis];
            if n < 2 {
                return self.min[axis];
            }
            let t = index as f64 / (n - 1) as f64;
            self.min[axis] + (self.max[axis] - self.min[axis]) * t
        };
        Point::new(at(0, i), at(1, j), at(2, k))
    }

    /// `Ok` when the corners are finite, within [`MAX_COORDINATE`] and ordered, and every
    /// resolution at least 1 with a product that fits in memory's indices.
    fn check(&self) -> Result<(), QueryError> {
        let in_range = |p: &Point| p.iter().all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE);
        if !in_range(&self.min) || !in_range(&self.max) {
            return Err(QueryError::InvalidGrid(
                "corners must be finite and within ±1e100",
            ));
        }
        if (0..3).any(|k| self.min[k] > self.max[k]) {
            return Err(QueryError::InvalidGrid(
                "min corner must not exceed the max corner on any axis",
            ));
        }
        let count = self
            .resolution
            .iter()
            .try_fold(1usize, |n, &r| n.checked_mul(r));
        match count {
            _ if self.resolution.contains(&0) => Err(QueryError::InvalidGrid(
                "resolution must be at least 1 on every axis",
            )),
            Some(n) if n <= isize::MAX as usize / 8 => Ok(()),
            _ => Err(QueryError::InvalidGrid("point count is too large")),
        }
    }
}

/// The signed distance from each point of `grid` (in the mesh's frame) to the model's mesh, in
/// the grid's C order: negative inside (exact on a closed mesh; from the winding number on an
/// open one, NaN where its bound straddles ½), 0 on the surface. See the module docs.
///
/// An error when the model is a shape ([`QueryError::NotAMesh`]) or the grid is malformed or
/// its values do not fit in memory ([`QueryError::InvalidGrid`]; [`sdf_grid_into`] fills a
/// grid a slab at a time).
///
/// ```
/// use obbtree_bv::{Point, TriMesh};
/// use obbtree_query::{sdf_grid, Grid, Model};
///
/// let cube: Model = Model::new(TriMesh::cuboid(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0))?)?;
/// let grid = Grid { min: Point::new(-2.0, 0.0, 0.0), max: Point::new(2.0, 0.0, 0.0), resolution: [5, 1, 1] };
/// assert_eq!(sdf_grid(&cube, &grid)?, [1.0, 0.0, -1.0, 0.0, 1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sdf_grid<V: PosedOverlap>(model: &Model<V>, grid: &Grid) -> Result<Vec<f64>, QueryError> {
    grid.check()?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(grid.len())
        .map_err(|_| QueryError::InvalidGrid("point count does not fit in memory"))?;
    values.resize(grid.len(), 0.0);
    sdf_grid_into(model, grid, 0, &mut values)?;
    Ok(values)
}

/// [`sdf_grid`] for the x-slices `first_slice..` of `grid` that `out` holds (its length a
/// whole number of slices of `ny·nz` values, within the grid), written in place: a grid larger
/// than memory is computed a slab at a time. Returns how many values are NaN (an open mesh's
/// undecided sides).
pub fn sdf_grid_into<V: PosedOverlap>(
    model: &Model<V>,
    grid: &Grid,
    first_slice: usize,
    out: &mut [f64],
) -> Result<usize, QueryError> {
    grid.check()?;
    let mesh = model.mesh_for(Operand::Model, "sdf_grid")?;
    let [nx, ny, nz] = grid.resolution;
    let slice = ny * nz;
    if !out.len().is_multiple_of(slice) || first_slice + out.len() / slice > nx {
        return Err(QueryError::InvalidGrid(
            "output must hold whole x-slices within the grid",
        ));
    }
    mesh.distance_index();
    let size = mesh
        .bounds()
        .largest_coordinate()
        .max(grid.min.coords.amax())
        .max(grid.max.coords.amax());
    let undecided = out
        .par_chunks_mut(nz)
        .enumerate()
        .map(|(row, values)| {
            let (i, j) = (first_slice + row / ny, row % ny);
            fill_row(mesh, grid, [i, j], size, values)
        })
        .sum();
    Ok(undecided)
}

/// The signed distances of the row `(i, j, ·)` into `values`; returns how many are NaN.
fn fill_row<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    grid: &Grid,
    [i, j]: [usize; 2],
    size: f64,
    values: &mut [f64],
) -> usize {
    let points: Vec<Point> = (0..values.len()).map(|k| grid.point([i, j, k])).collect();
    let mut hint = None;
    for (values, points) in values.chunks_mut(LANES).zip(points.chunks(LANES)) {
        if let Ok(packet) = <&[Point; LANES]>::try_from(points) {
            let found = point_distances(mesh, packet, hint, None, size, Packing::Row)
                .map(|found| found.expect("no maximum distance"));
            hint = Some(found[LANES - 1].triangle);
            for (value, found) in values.iter_mut().zip(found) {
                *value = found.distance;
            }
            continue;
        }
        for (value, p) in values.iter_mut().zip(points) {
            let found = point_distance(mesh, p, hint, None, size).expect("no maximum distance");
            hint = Some(found.triangle);
            *value = found.distance;
        }
    }
    let sides = row_sides(mesh, &points, values, size);
    let mut undecided = 0;
    for (value, side) in values.iter_mut().zip(sides) {
        match side {
            Side::Inside => *value = -*value,
            Side::Undecided => {
                *value = f64::NAN;
                undecided += 1;
            }
            Side::Outside | Side::Surface => {}
        }
    }
    undecided
}

/// The side of each point of a row, given its distances: exact on a closed mesh (one segment
/// for the row), from the winding number on an open one ([`open_row_sides`]).
fn row_sides<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    points: &[Point],
    distances: &[f64],
    size: f64,
) -> Vec<Side> {
    let surface = |d: f64| d == 0.0;
    if mesh.is_closed() {
        let inside = row_inside(mesh, points);
        return inside
            .iter()
            .zip(distances)
            .map(|(&inside, &d)| match (surface(d), inside) {
                (true, _) => Side::Surface,
                (false, true) => Side::Inside,
                (false, false) => Side::Outside,
            })
            .collect();
    }
    open_row_sides(mesh, points, distances, size)
}

/// How many points of a row share one bound on the winding number's gradient.
const STRETCH: usize = 16;

/// The sides of a row's points on an open mesh, from their winding numbers against ½. A point
/// takes its side from its predecessor's bracket without a walk when that decides it: carried
/// along the segment between them ([`carried_along`]: no crossing when the segment lies in the
/// two balls their distances leave clear of the surface), with the gradient bound over the
/// row's stretch of points ([`gradient_bound`]). Otherwise the point's own estimate decides,
/// asked for room to spare when the point lies far enough from the surface for its successor
/// to take it.
fn open_row_sides<V: PosedOverlap>(
    mesh: &MeshModel<V>,
    points: &[Point],
    distances: &[f64],
    size: f64,
) -> Vec<Side> {
    let lower = |d: f64| d - 1e-9 * (d + size);
    let mut gradients: Vec<Option<f64>> = vec![None; points.len().div_ceil(STRETCH)];
    let mut gradient = |k: usize| {
        let stretch = k / STRETCH;
        let from = (stretch * STRETCH).saturating_sub(1);
        let to = ((stretch + 1) * STRETCH).min(points.len());
        *gradients[stretch]
            .get_or_insert_with(|| gradient_bound(mesh, &Aabb::from_points(&points[from..to])))
    };
    let spacing = points.get(1).map_or(0.0, |q| (q - points[0]).norm());
    let mut last: Option<Bracket> = None;
    let mut sides = Vec::with_capacity(points.len());
    for (k, (p, &d)) in points.iter().zip(distances).enumerate() {
        if d == 0.0 {
            sides.push(Side::Surface);
            last = None;
            continue;
        }
        let carried = last.and_then(|bracket| {
            let before = &points[k - 1];
            let clear = lower(distances[k - 1]) + lower(d) > (p - before).norm() * (1.0 + 1e-12);
            carried_along(mesh, bracket, [before, p], clear, gradient(k))
        });
        let bracket = match carried {
            Some(bracket) if bracket.side() != Side::Undecided => bracket,
            _ => {
                let enough = if lower(d) > 0.5 * spacing {
                    Enough::SideWithRoom(ROOM)
                } else {
                    Enough::Side
                };
                Bracket::of(&estimate(mesh, p, enough))
            }
        };
        sides.push(bracket.side());
        last = Some(bracket);
    }
    sides
}

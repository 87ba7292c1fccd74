//! The earliest time a point translating linearly enters a convex hull, in exact rationals:
//! `min t` over `origin + t·direction = Σ λᵢ vᵢ`, `λ ≥ 0`, `Σ λ = 1`, `0 ≤ t ≤ 1`, a linear
//! programme whose minimum is at a vertex of its polytope; each vertex is the unique solution
//! of the equations with some of the variables set to zero, and every such subset is tried
//! (Gaussian elimination). Shares no code or method with the engine.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

/// The earliest `t ∈ [0, 1]` at which `origin + t·direction` lies in the hull of `hull`
/// (module docs), exactly.
pub fn earliest_hit(origin: &[Q; 3], direction: &[Q; 3], hull: &[[Q; 3]]) -> Option<Q> {
    // Unknowns: λ₁ … λₖ, t, s (t + s = 1), all ≥ 0. Rows: Σ λ v − t d = origin (3), Σ λ = 1,
    // t + s = 1.
    let k = hull.len();
    let n = k + 2;
    let mut rows: Vec<(Vec<Q>, Q)> = (0..3)
        .map(|axis| {
            let mut row: Vec<Q> = hull.iter().map(|v| v[axis].clone()).collect();
            row.extend([-direction[axis].clone(), Q::zero()]);
            (row, origin[axis].clone())
        })
        .collect();
    let mut simplex = vec![Q::one(); k];
    simplex.extend([Q::zero(), Q::zero()]);
    rows.push((simplex, Q::one()));
    let mut time = vec![Q::zero(); k];
    time.extend([Q::one(), Q::one()]);
    rows.push((time, Q::one()));
    // A vertex's nonzero variables have independent columns, so at most one per row.
    (0u32..1 << n)
        .filter(|free| free.count_ones() as usize <= rows.len())
        .filter_map(|free| solve_on(&rows, n, free))
        .filter(|x| x.iter().all(|v| !v.is_negative()))
        .map(|x| x[k].clone())
        .min()
}

/// The unique solution of `rows` with the unknowns outside the bit set `free` at zero, if the
/// restricted system has exactly one.
fn solve_on(rows: &[(Vec<Q>, Q)], n: usize, free: u32) -> Option<Vec<Q>> {
    let columns: Vec<usize> = (0..n).filter(|j| free >> j & 1 == 1).collect();
    let mut m: Vec<Vec<Q>> = rows
        .iter()
        .map(|(row, rhs)| {
            let mut r: Vec<Q> = columns.iter().map(|&j| row[j].clone()).collect();
            r.push(rhs.clone());
            r
        })
        .collect();
    let width = columns.len();
    let mut rank = 0;
    for col in 0..width {
        let pivot = (rank..m.len()).find(|&r| !m[r][col].is_zero())?;
        m.swap(rank, pivot);
        let p = m[rank][col].clone();
        m[rank].iter_mut().for_each(|x| *x /= &p);
        for r in 0..m.len() {
            if r != rank && !m[r][col].is_zero() {
                let f = m[r][col].clone();
                let pivot_row = m[rank].clone();
                m[r].iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, y)| *x -= &f * y);
            }
        }
        rank += 1;
    }
    // Consistent: the rows below the pivots are all zero, right-hand side included.
    if m[rank..].iter().any(|r| !r[width].is_zero()) {
        return None;
    }
    let mut x = vec![Q::zero(); n];
    for (i, &j) in columns.iter().enumerate() {
        x[j] = m[i][width].clone();
    }
    Some(x)
}

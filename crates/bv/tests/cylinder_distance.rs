//! How often the certified cylinder distance settles (its interval within
//! `TOLERANCE · (upper + M)`), over many random cylinders against points, segments,
//! triangles, boxes' corners and other cylinders, and that every interval holds its distance.
//! The counts are those the module docs of `distance::certified` quote.

use obbtree_bv::distance::certified::Certified;
use obbtree_bv::distance::cylinder_cylinder::cylinder_cylinder;
use obbtree_bv::distance::cylinder_hull::cylinder_hull;
use obbtree_bv::distance::support::Cylinder;
use obbtree_bv::Point;

#[path = "common/cylinder.rs"]
mod cylinder_oracle;

/// SplitMix64 (Steele, Lea & Flood 2014), uniform in `[lo, hi)`.
struct Draw(u64);

impl Draw {
    fn next(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (hi - lo) * ((z >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn point(&mut self, reach: f64) -> Point {
        Point::new(
            self.next(-reach, reach),
            self.next(-reach, reach),
            self.next(-reach, reach),
        )
    }

    fn cylinder(&mut self) -> Cylinder {
        let a = self.point(2.0);
        Cylinder {
            a,
            b: a + self.point(1.5).coords,
            radius: self.next(0.05, 1.0),
        }
    }
}

/// The interval holds the distance of the points, up to their rounding.
fn consistent(c: &Certified) -> bool {
    c.lower <= c.upper && c.lower <= c.distance && c.distance <= c.upper
}

#[test]
fn nearly_every_search_settles_and_every_interval_holds() {
    let mut draw = Draw(2026);
    let cases = 40000;
    // Per kind: searches that did not settle, and of those, intervals wider than the distance
    // queries' promise 1e-12·(upper + M) (M at most 6 here).
    let (mut unsettled, mut wide) = ([0usize; 5], [0usize; 5]);
    for _ in 0..cases {
        let c = draw.cylinder();
        let found = [
            cylinder_hull(&c, &[draw.point(3.0)]),
            cylinder_hull(&c, &[draw.point(3.0), draw.point(3.0)]),
            cylinder_hull(&c, &[draw.point(3.0), draw.point(3.0), draw.point(3.0)]),
            {
                let (o, s) = (draw.point(3.0), draw.next(0.1, 1.0));
                let corners: Vec<Point> = (0..8)
                    .map(|k| {
                        let bit = |i: u32| if k >> i & 1 == 1 { s } else { -s };
                        o + obbtree_bv::Vector::new(bit(0), bit(1), bit(2))
                    })
                    .collect();
                cylinder_hull(&c, &corners)
            },
            cylinder_cylinder(&c, &draw.cylinder()),
        ];
        for (k, f) in found.iter().enumerate() {
            assert!(consistent(f), "{f:?}");
            if f.lower == 0.0 {
                continue; // touching, or too close to tell
            }
            unsettled[k] += usize::from(!f.settled);
            wide[k] += usize::from(f.upper - f.lower > 1e-12 * (f.upper + 6.0));
        }
    }
    eprintln!("of {cases} each: unsettled {unsettled:?}, wider than the promise {wide:?}");
    assert!(
        unsettled.iter().all(|&n| n <= cases / 4000),
        "{unsettled:?}"
    );
    assert!(wide.iter().all(|&n| n <= cases / 4000), "{wide:?}");
}

/// The distance from `p` to the solid cylinder `c`, in plain floats (axial and radial excess),
/// sharing nothing with the certified search.
fn point_cylinder_distance(c: &Cylinder, p: &Point) -> f64 {
    cylinder_oracle::point_solid_cylinder(&c.a, &c.b, c.radius, p)
}

/// Points clearly apart from a cylinder (by the plain distance above) get a positive lower
/// bound, an interval within the distance queries' promise, and the plain distance inside it
/// up to the plain formula's rounding: a lower bound of 0 is not an answer for sets apart.
#[test]
fn points_apart_get_narrow_intervals_around_the_plain_distance() {
    let mut draw = Draw(7);
    let mut apart = 0;
    for _ in 0..20000 {
        let c = draw.cylinder();
        let p = draw.point(3.0);
        let plain = point_cylinder_distance(&c, &p);
        if plain < 1e-3 {
            continue;
        }
        apart += 1;
        let f = cylinder_hull(&c, &[p]);
        assert!(consistent(&f) && f.lower > 0.0, "{f:?}");
        assert!(f.upper - f.lower <= 1e-12 * (f.upper + 6.0), "{f:?}");
        assert!(
            f.lower - 1e-12 <= plain && plain <= f.upper + 1e-12,
            "{plain} {f:?}"
        );
    }
    assert!(apart > 10000, "{apart}");
}

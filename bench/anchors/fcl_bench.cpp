// FCL 0.7 (Pan, Chitta & Manocha, "FCL: A general purpose library for collision and proximity
// queries", ICRA 2012) on the inputs of `obbtree collide` and of obbtree's distance queries.
//
//   fcl_bench collide A.obj B.obj poses.json --bv obb|obbrss|aabb|kios|kdop18 --mode bool|all [--out results.json]
//   fcl_bench distance A.obj B.obj poses.json --bv rss|obbrss|kios|aabb [--margin D] [--out results.json]
//   fcl_bench ccd A.obj B.obj motions.json [--solver ca|naive] [--tolerance D] [--out results.json]
//
// Collision asks for no contact points (enable_contact = false), so FCL records one contact per
// intersecting triangle pair: `bool` stops at the first (num_max_contacts = 1), `all` collects
// every one. FCL has no margin query: `--margin D` times the distance and compares it with D.
// FCL 0.7 has no mesh distance for OBB and k-DOP trees (prints "supported":false, exits 3).
//
// `ccd` is continuous collision of B moving against the fixed A, for each motion of the file
// (the input of `obbtree ccd A B --motions`), under FCL's interpolating motion about B's origin
// (see OriginMotion), on RSS trees. `--solver ca` (default): FCL's conservative advancement
// (RSS and OBBRSS are its only mesh-mesh paths). `--solver naive`: FCL's sampling, a static
// collision at t = i / (n - 1), i = 0..n-1, n = ceil(1 / tolerance), stopping at the first hit.
// FCL returns a time of contact, not a triangle pair: "toi":[t,t], "pair":null.
#include "fcl_common.hpp"
#include "mesh_bench.hpp"

namespace anchors {

struct Fcl {
  static constexpr const char* name = "fcl";
  using Geometry = FclGeometry;

  static std::vector<std::string> collide_volumes() { return {"obb", "obbrss", "aabb", "kios", "kdop18"}; }
  static std::vector<std::string> distance_volumes() { return {"rss", "obbrss", "kios", "aabb"}; }
  static std::vector<std::string> missing_distance_volumes() { return {"obb", "kdop18"}; }

  static Geometry build(const std::string& bv, const Mesh& mesh) { return fcl_tree(bv, mesh); }

  static std::vector<TrianglePair> collide(const Geometry& a, const Geometry& b, const Pose& pose, bool all) {
    const fcl::CollisionRequestd request(all ? std::numeric_limits<std::size_t>::max() : 1, false);
    fcl::CollisionResultd result;
    fcl::collide(a.get(), fcl::Transform3d::Identity(), b.get(), fcl_transform(pose), request, result);
    std::vector<TrianglePair> pairs(result.numContacts());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto& c = result.getContact(k);
      pairs[k] = {static_cast<int>(c.b1), static_cast<int>(c.b2)};
    }
    return pairs;
  }

  static DistanceAnswer distance(const Geometry& a, const Geometry& b, const Pose& pose) {
    const fcl::DistanceRequestd request(true);
    fcl::DistanceResultd result;
    fcl::distance(a.get(), fcl::Transform3d::Identity(), b.get(), fcl_transform(pose), request, result);
    const auto& p = result.nearest_points;
    return DistanceAnswer{result.min_distance,
                          {static_cast<int>(result.b1), static_cast<int>(result.b2)},
                          {p[0].x(), p[0].y(), p[0].z()},
                          {p[1].x(), p[1].y(), p[1].z()}};
  }

  static MarginAnswer within(const Geometry& a, const Geometry& b, const Pose& pose, double margin) {
    const double d = distance(a, b, pose).distance;
    return MarginAnswer{d <= margin, d};
  }
};

// ---------------------------------------------------------------------------------------------
// Continuous collision

// The motion of the contract: R(t) = R0 exp(t log(R0^T R1)), B's origin going linearly from T0
// to T1. FCL's InterpMotion (CCDM_LINEAR) is R(t) = exp(t log(R1 R0^T)) R0, the same rotation
// (R0 exp(X) R0^T = exp(R0 X R0^T), and Eigen's AngleAxis takes the angle in [0, pi]: shortest
// arc), with its reference point p going linearly: T(t) = T0 + t (T1 + R1 p - T0 - R0 p) + R0 p -
// R(t) p. With p = 0 that is the contract. CCDM_SCREW is not: it turns about a fixed screw axis,
// so B's origin follows a helix. FCL 0.7's two-transform constructor (the one getMotionBase
// uses for CCDM_LINEAR) leaves p uninitialised, so it is set to 0 here and the velocities
// recomputed.
class OriginMotion : public fcl::InterpMotion<double> {
 public:
  OriginMotion(const fcl::Transform3d& start, const fcl::Transform3d& end) : InterpMotion(start, end) {
    reference_p.setZero();
    computeVelocity();
  }
};

struct CcdAnswer {
  bool hit = false;
  double toi = 1.0;
};

// FCL 0.7's defaults (ContinuousCollisionRequest): toc_err 1e-4, 10 iterations. Its mesh-mesh
// conservative advancement reads neither: it stops when a step is at most 1e-5 of the motion
// (MeshConservativeAdvancementTraversalNode::t_err), whatever toc_err says.
constexpr double kFclTocErr = 1e-4;

// The request: the naive solver samples min(num_max_iterations, ceil(1 / toc_err)) times.
fcl::ContinuousCollisionRequestd ccd_request(const std::string& solver, double toc_err) {
  if (solver == "naive") {
    return fcl::ContinuousCollisionRequestd(std::numeric_limits<std::size_t>::max(), toc_err, fcl::CCDM_LINEAR,
                                            fcl::GST_LIBCCD, fcl::CCDC_NAIVE);
  }
  return fcl::ContinuousCollisionRequestd(10, toc_err, fcl::CCDM_LINEAR, fcl::GST_LIBCCD,
                                          fcl::CCDC_CONSERVATIVE_ADVANCEMENT);
}

CcdAnswer fcl_ccd(const FclGeometry& a, const FclGeometry& b, const Motion& m,
                  const fcl::ContinuousCollisionRequestd& request) {
  fcl::ContinuousCollisionResultd result;
  const OriginMotion fixed(fcl::Transform3d::Identity(), fcl::Transform3d::Identity());
  const OriginMotion moving(fcl_transform(m.start), fcl_transform(m.end));
  if (fcl::continuousCollide(a.get(), &fixed, b.get(), &moving, request, result) < 0) {
    fail("fcl: continuous collision of these trees is not supported", 3);
  }
  return CcdAnswer{result.is_collide, result.time_of_contact};
}

// The line: the contract's keys (build_ms, query_total_ms, results) among the harness's own.
Report ccd_report(const std::string& solver, std::size_t motions, const Mesh& a, const Mesh& b,
                  double tolerance, double build_ms, const LoopTimes& times,
                  const std::vector<CcdAnswer>& answers) {
  std::size_t hits = 0;
  Report results = Report::array();
  for (const auto& r : answers) {
    hits += r.hit;
    results.push_back(Report{{"hit", r.hit},
                             {"toi", r.hit ? Report::array({r.toi, r.toi}) : Report(nullptr)},
                             {"pair", nullptr}});
  }
  return Report{{"engine", "fcl"},
                {"command", "ccd"},
                {"bv", "rss"},
                {"solver", solver == "ca" ? "conservative_advancement" : "naive"},
                {"motion", "linear"},
                {"motions", motions},
                {"tris_a", a.triangles.size()},
                {"tris_b", b.triangles.size()},
                {"tolerance", tolerance},
                {"build_ms", build_ms},
                {"query_total_ms", times.total_ms},
                {"query_median_us", times.median_us()},
                {"hits", hits},
                {"results", std::move(results)}};
}

int run_ccd(const Args& args) {
  args.only({"--solver", "--tolerance", "--out"});
  const auto& p = args.positional();
  if (p.size() != 4) {
    fail("usage: fcl_bench ccd A.obj B.obj motions.json [--solver ca|naive] [--tolerance D] [--out results.json]");
  }
  const std::string solver = args.get("--solver", "ca");
  require_one_of(solver, {"ca", "naive"}, "--solver");
  const Mesh mesh_a = read_obj(p[1]), mesh_b = read_obj(p[2]);
  const std::vector<Motion> motions = read_motions(p[3]);
  const double tolerance = args.has("--tolerance") ? number(args.get("--tolerance", ""), "--tolerance") : kFclTocErr;
  if (!(tolerance > 0.0)) fail("--tolerance must be positive");
  const fcl::ContinuousCollisionRequestd request = ccd_request(solver, tolerance);
  const Clock::time_point start = Clock::now();
  const FclGeometry a = fcl_tree("rss", mesh_a), b = fcl_tree("rss", mesh_b);
  const double build_ms = milliseconds(Clock::now() - start);
  auto [times, answers] = time_queries(
      motions.size(), [&](std::size_t i) { return fcl_ccd(a, b, motions[i], request); });
  Report line = ccd_report(solver, motions.size(), mesh_a, mesh_b, tolerance, build_ms, times, answers);
  print_line(line);
  if (!args.get("--out", "").empty()) write_json_file(args.get("--out", ""), line);
  return 0;
}

}  // namespace anchors

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "ccd") return anchors::run_ccd(anchors::Args(argc, argv, {}));
  return anchors::run_mesh_bench<anchors::Fcl>(argc, argv);
}

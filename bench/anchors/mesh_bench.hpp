// The mesh–mesh program shared by fcl_bench and coal_bench: the command line, the timed loops and
// the reports; the engine (FCL or coal) comes in as a class with
//
//   static constexpr const char* name;
//   using Geometry = ...;                               // a built tree of one mesh
//   static std::vector<std::string> collide_volumes(), distance_volumes(),
//                                   missing_distance_volumes();  // --bv names
//   static Geometry build(const std::string& bv, const Mesh& mesh);
//   static std::vector<std::array<int, 2>> collide(const Geometry& a, const Geometry& b,
//                                                   const Pose& pose, bool all);
//   static DistanceAnswer distance(const Geometry& a, const Geometry& b, const Pose& pose);
//   static MarginAnswer within(const Geometry& a, const Geometry& b, const Pose& pose, double d);
//
// A stays at the identity, B is placed by each pose; every answer is in A's frame.
//
//   NAME collide A.obj B.obj poses.json --bv BV --mode bool|all [--out results.json]
//   NAME distance A.obj B.obj poses.json --bv BV [--margin D] [--out results.json]
#pragma once

#include "common.hpp"

#include <limits>
#include <optional>

namespace anchors {

using TrianglePair = std::array<int, 2>;

struct DistanceAnswer {
  double distance = 0.0;
  TrianglePair pair{-1, -1};
  Vec3 point_a{}, point_b{};
};

struct MarginAnswer {
  bool within = false;
  std::optional<double> distance;  // when the engine computed it
};

struct Setup {
  std::string bv;
  Mesh a, b;
  std::vector<Pose> poses;
  std::string out;
};

template <class Engine>
[[noreturn]] void usage() {
  const std::string program = std::string(Engine::name) + "_bench";
  fail("usage: " + program + " collide A.obj B.obj poses.json --bv BV --mode bool|all [--out results.json]\n       " +
       program + " distance A.obj B.obj poses.json --bv BV [--margin D] [--out results.json]");
}

template <class Engine>
Setup read_setup(const Args& args) {
  const auto& p = args.positional();
  if (p.size() != 4) usage<Engine>();
  return Setup{args.get("--bv", ""), read_obj(p[1]), read_obj(p[2]), read_poses(p[3]),
               args.get("--out", "")};
}

template <class Engine>
struct Trees {
  double build_ms;
  typename Engine::Geometry a, b;
};

// Both trees (A and B, even when they are the same file, as obbtree builds both), timed.
template <class Engine>
Trees<Engine> build_both(const Setup& s) {
  const Clock::time_point start = Clock::now();
  auto a = Engine::build(s.bv, s.a);
  auto b = Engine::build(s.bv, s.b);
  return Trees<Engine>{milliseconds(Clock::now() - start), std::move(a), std::move(b)};
}

// What every report starts with.
template <class Engine>
Report report_head(const std::string& command, const Setup& s, double build_ms) {
  Report r;
  r["engine"] = Engine::name;
  r["command"] = command;
  r["bv"] = s.bv;
  r["poses"] = s.poses.size();
  r["tris_a"] = s.a.triangles.size();
  r["tris_b"] = s.b.triangles.size();
  r["build_ms"] = build_ms;
  return r;
}

template <class Engine>
int run_collide(const Args& args) {
  args.only({"--bv", "--mode", "--out"});
  const Setup s = read_setup<Engine>(args);
  require_one_of(s.bv, Engine::collide_volumes(), "--bv");
  const std::string mode = args.get("--mode", "all");
  require_one_of(mode, {"bool", "all"}, "--mode");
  const Trees<Engine> t = build_both<Engine>(s);
  const bool all = mode == "all";
  auto [times, results] = time_queries(
      s.poses.size(), [&](std::size_t i) { return Engine::collide(t.a, t.b, s.poses[i], all); });
  std::size_t intersecting = 0, pairs = 0;
  Report per_pose = Report::array();
  for (auto& r : results) {
    intersecting += !r.empty();
    pairs += r.size();
    std::sort(r.begin(), r.end());
    per_pose.push_back(Report{{"intersects", !r.empty()}, {"pairs", r}});
  }
  Report line = report_head<Engine>("collide", s, t.build_ms);
  line["mode"] = mode;
  line["query_total_ms"] = times.total_ms;
  line["query_median_us"] = times.median_us();
  line["intersecting_poses"] = intersecting;
  line["total_pairs"] = pairs;
  print_line(line);
  if (!s.out.empty()) {
    Report out = report_head<Engine>("collide", s, t.build_ms);
    out["mode"] = mode;
    out["query_total_ms"] = times.total_ms;
    out["results"] = std::move(per_pose);
    write_json_file(s.out, out);
  }
  return 0;
}

// `distance` with `--margin`: is B within D of A, per pose.
template <class Engine>
int run_margin(const Setup& s, const Trees<Engine>& t, double margin) {
  auto [times, results] = time_queries(
      s.poses.size(), [&](std::size_t i) { return Engine::within(t.a, t.b, s.poses[i], margin); });
  std::size_t within = 0;
  Report per_pose = Report::array();
  for (const auto& r : results) {
    within += r.within;
    Report entry{{"within", r.within}};
    if (r.distance) entry["distance"] = *r.distance;
    per_pose.push_back(entry);
  }
  Report line = report_head<Engine>("distance", s, t.build_ms);
  line["query_total_ms"] = times.total_ms;
  line["query_median_us"] = times.median_us();
  line["margin"] = margin;
  line["within_poses"] = within;
  print_line(line);
  if (!s.out.empty()) {
    write_json_file(s.out, Report{{"margin", margin}, {"results", std::move(per_pose)}});
  }
  return 0;
}

template <class Engine>
int run_distance(const Args& args) {
  args.only({"--bv", "--margin", "--out"});
  const Setup s = read_setup<Engine>(args);
  const auto missing = Engine::missing_distance_volumes();
  if (std::find(missing.begin(), missing.end(), s.bv) != missing.end()) {
    print_line(Report{{"engine", Engine::name}, {"command", "distance"}, {"bv", s.bv}, {"supported", false}});
    return 3;
  }
  require_one_of(s.bv, Engine::distance_volumes(), "--bv");
  const Trees<Engine> t = build_both<Engine>(s);
  if (args.has("--margin")) return run_margin<Engine>(s, t, number(args.get("--margin", ""), "--margin"));
  auto [times, results] = time_queries(
      s.poses.size(), [&](std::size_t i) { return Engine::distance(t.a, t.b, s.poses[i]); });
  std::size_t zero = 0;
  double least = std::numeric_limits<double>::infinity();
  Report per_pose = Report::array();
  for (const auto& r : results) {
    zero += r.distance <= 0.0;
    least = std::min(least, r.distance);
    per_pose.push_back(Report{{"distance", r.distance},
                              {"pair", r.pair},
                              {"point_a", vec3_json(r.point_a)},
                              {"point_b", vec3_json(r.point_b)}});
  }
  Report line = report_head<Engine>("distance", s, t.build_ms);
  line["query_total_ms"] = times.total_ms;
  line["query_median_us"] = times.median_us();
  line["zero_distance_poses"] = zero;
  line["min_distance"] = least;
  print_line(line);
  if (!s.out.empty()) write_json_file(s.out, Report{{"results", std::move(per_pose)}});
  return 0;
}

template <class Engine>
int run_mesh_bench(int argc, char** argv) {
  const Args args(argc, argv, {});
  const auto& p = args.positional();
  const std::string command = p.empty() ? "" : p[0];
  if (command == "collide") return run_collide<Engine>(args);
  if (command == "distance") return run_distance<Engine>(args);
  usage<Engine>();
}

}  // namespace anchors

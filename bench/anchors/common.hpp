// What every anchor harness shares: OBJ meshes, pose and ray files, the rotation of a rotation
// vector computed as nalgebra's `Rotation3::new` computes it, the timed query loop, JSON output.
//
// The inputs are exactly those of the `obbtree` program (`collide --poses`, `pick --rays`,
// `ccd --motions`): poses {"poses":[{"translation":[x,y,z],"rotation":[rx,ry,rz]}]} map B's
// point p to R p + t, R the rotation of the rotation vector (axis x angle, radians); rays
// {"rays":[{"origin","dir"}]}; motions {"motions":[{"start":pose,"end":pose}]}.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace anchors {

using Json = nlohmann::json;
// Reports keep their keys in the order they are written.
using Report = nlohmann::ordered_json;
using Vec3 = std::array<double, 3>;
// Row-major: rotation[i][j] is row i, column j.
using Mat3 = std::array<Vec3, 3>;
using Clock = std::chrono::steady_clock;

// Queries run once, untimed and discarded, before the timed loop (as the `obbtree` program does),
// so that the time is the steady state: trees in cache, allocations made.
constexpr std::size_t kWarmUpQueries = 10;

[[noreturn]] inline void fail(const std::string& message, int status = 2) {
  std::cerr << message << '\n';
  std::exit(status);
}

inline double milliseconds(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// ---------------------------------------------------------------------------------------------
// Meshes

struct Mesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

// The vertex index of one OBJ face corner ("i", "i/t", "i//n", "i/t/n"; negative: relative).
inline int obj_corner(const std::string& field, std::size_t vertex_count, const std::string& path) {
  char* end = nullptr;
  const long k = std::strtol(field.c_str(), &end, 10);
  const long index = k > 0 ? k - 1 : static_cast<long>(vertex_count) + k;
  if (end == field.c_str() || k == 0 || index < 0 || index >= static_cast<long>(vertex_count)) {
    fail(path + ": bad face corner '" + field + "'");
  }
  return static_cast<int>(index);
}

// An OBJ file's `v` and `f` lines; polygons fanned (v0, v1, v2), (v0, v2, v3), ..., so triangle
// t is the t-th triangle of obbtree's loader too. Coordinates by strtod (correctly rounded).
inline Mesh read_obj(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  Mesh mesh;
  std::string line, word;
  std::vector<int> corners;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (!(fields >> word)) continue;
    if (word == "v") {
      Vec3 v{};
      for (double& c : v) {
        if (!(fields >> word)) fail(path + ": short vertex line: " + line);
        c = std::strtod(word.c_str(), nullptr);
      }
      mesh.vertices.push_back(v);
    } else if (word == "f") {
      corners.clear();
      while (fields >> word) corners.push_back(obj_corner(word, mesh.vertices.size(), path));
      for (std::size_t k = 1; k + 1 < corners.size(); ++k) {
        mesh.triangles.push_back({corners[0], corners[k], corners[k + 1]});
      }
    }
  }
  if (mesh.triangles.empty()) fail(path + ": no triangles");
  return mesh;
}

// ---------------------------------------------------------------------------------------------
// Poses and rays

// The rotation matrix of the rotation vector `rv`, operation for operation as nalgebra 0.35's
// `Rotation3::new` (normalise by the norm, then `Rotation3::from_axis_angle`), so that both sides
// place B with the same matrix. Rodrigues' formula: Murray, Li & Sastry, *A Mathematical
// Introduction to Robotic Manipulation* (1994) §2.2.2. Build with -ffp-contract=off.
inline Mat3 rotation_from_vector(const Vec3& rv) {
  const double angle = std::sqrt(rv[0] * rv[0] + rv[1] * rv[1] + rv[2] * rv[2]);
  if (angle == 0.0) return Mat3{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
  const double ux = rv[0] / angle, uy = rv[1] / angle, uz = rv[2] / angle;
  const double sqx = ux * ux, sqy = uy * uy, sqz = uz * uz;
  const double sin = std::sin(angle), cos = std::cos(angle);
  const double one_m_cos = 1.0 - cos;
  return Mat3{
      Vec3{sqx + (1.0 - sqx) * cos, ux * uy * one_m_cos - uz * sin, ux * uz * one_m_cos + uy * sin},
      Vec3{ux * uy * one_m_cos + uz * sin, sqy + (1.0 - sqy) * cos, uy * uz * one_m_cos - ux * sin},
      Vec3{ux * uz * one_m_cos - uy * sin, uy * uz * one_m_cos + ux * sin, sqz + (1.0 - sqz) * cos},
  };
}

struct Pose {
  Mat3 rotation;
  Vec3 translation;
};

inline Json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    fail(path + ": " + e.what());
  }
}

inline Vec3 vec3(const Json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 3) fail(what + ": expected [x, y, z], got " + j.dump());
  return Vec3{j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}

// {"translation":[x,y,z],"rotation":[rx,ry,rz]}.
inline Pose pose_from_json(const Json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("translation") || !j.contains("rotation")) {
    fail(what + ": expected {\"translation\":[..],\"rotation\":[..]}");
  }
  return Pose{rotation_from_vector(vec3(j["rotation"], what + " rotation")),
              vec3(j["translation"], what + " translation")};
}

inline std::vector<Pose> read_poses(const std::string& path) {
  const Json file = read_json(path);
  if (!file.contains("poses") || !file["poses"].is_array()) fail(path + ": no \"poses\" list");
  std::vector<Pose> poses;
  for (const Json& p : file["poses"]) {
    poses.push_back(pose_from_json(p, path + " pose " + std::to_string(poses.size())));
  }
  return poses;
}

// A motion of B over t in [0, 1] between two poses: {"start":POSE,"end":POSE}. The file
// {"motions":[...]} is the input of `obbtree ccd A B --motions`: the translation goes linearly,
// the rotation at constant angular velocity about a fixed axis (shortest arc), about B's origin.
struct Motion {
  Pose start, end;
};

inline std::vector<Motion> read_motions(const std::string& path) {
  const Json file = read_json(path);
  if (!file.contains("motions") || !file["motions"].is_array()) fail(path + ": no \"motions\" list");
  std::vector<Motion> motions;
  for (const Json& m : file["motions"]) {
    const std::string what = path + " motion " + std::to_string(motions.size());
    if (!m.is_object() || !m.contains("start") || !m.contains("end")) fail(what + ": expected {\"start\":..,\"end\":..}");
    motions.push_back(Motion{pose_from_json(m["start"], what + " start"), pose_from_json(m["end"], what + " end")});
  }
  return motions;
}

struct Ray {
  Vec3 origin, dir;
};

inline std::vector<Ray> read_rays(const std::string& path) {
  const Json file = read_json(path);
  if (!file.contains("rays") || !file["rays"].is_array()) fail(path + ": no \"rays\" list");
  std::vector<Ray> rays;
  for (const Json& r : file["rays"]) {
    const std::string what = path + " ray " + std::to_string(rays.size());
    rays.push_back(Ray{vec3(r.at("origin"), what), vec3(r.at("dir"), what)});
  }
  return rays;
}

// ---------------------------------------------------------------------------------------------
// Command line

// Positional arguments and `--name value` options; `--name` alone for the names in `flags`.
class Args {
 public:
  Args(int argc, char** argv, std::vector<std::string> flags) {
    for (int k = 1; k < argc; ++k) {
      const std::string a = argv[k];
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
      } else if (std::find(flags.begin(), flags.end(), a) != flags.end()) {
        options_[a] = "";
      } else if (k + 1 < argc) {
        options_[a] = argv[++k];
      } else {
        fail(a + " needs a value");
      }
    }
  }
  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& name) const { return options_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& otherwise) const {
    const auto it = options_.find(name);
    return it == options_.end() ? otherwise : it->second;
  }
  // Fails naming any option not in `known`.
  void only(const std::vector<std::string>& known) const {
    for (const auto& [name, value] : options_) {
      if (std::find(known.begin(), known.end(), name) == known.end()) fail("unknown option " + name);
    }
  }

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> options_;
};

// A finite number given on the command line.
inline double number(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x)) fail(what + " must be a number, not '" + text + "'");
  return x;
}

inline void require_one_of(const std::string& value, const std::vector<std::string>& allowed,
                           const std::string& what) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  fail(what + " must be " + list + ", not '" + value + "'");
}

// ---------------------------------------------------------------------------------------------
// Timing

struct LoopTimes {
  double total_ms = 0.0;
  std::vector<double> query_us;

  double median_us() const {
    if (query_us.empty()) return 0.0;
    std::vector<double> sorted = query_us;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  }
};

// Runs `query(i)` for the first `warm_up` queries untimed (results discarded), then for every i in
// 0..n under the clock: the loop's total time, each query's time and the results.
template <class Query>
auto time_queries(std::size_t n, Query&& query, std::size_t warm_up = kWarmUpQueries) {
  using Result = decltype(query(std::size_t{0}));
  for (std::size_t i = 0; i < std::min(n, warm_up); ++i) (void)query(i);
  LoopTimes times;
  times.query_us.resize(n);
  std::vector<Result> results(n);
  const Clock::time_point start = Clock::now();
  Clock::time_point previous = start;
  for (std::size_t i = 0; i < n; ++i) {
    results[i] = query(i);
    const Clock::time_point now = Clock::now();
    times.query_us[i] = std::chrono::duration<double, std::micro>(now - previous).count();
    previous = now;
  }
  times.total_ms = milliseconds(previous - start);
  return std::make_pair(times, std::move(results));
}

// ---------------------------------------------------------------------------------------------
// Output

inline void print_line(const Report& report) { std::cout << report.dump() << std::endl; }

inline void write_json_file(const std::string& path, const Report& report) {
  std::ofstream out(path);
  if (!out) fail("cannot write " + path);
  out << report.dump() << '\n';
  if (!out) fail("cannot write " + path);
}

inline Report vec3_json(const Vec3& v) { return Report::array({v[0], v[1], v[2]}); }

}  // namespace anchors

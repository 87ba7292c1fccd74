// Writes a CommonJS mesh module ({positions: [[x,y,z]...], cells: [[i,j,k]...]}, 0-based) as
// Wavefront OBJ on stdout: positions in order as `v`, cells in order as `f` (1-based).
// Usage: node js2obj.js MODULE.js "comment naming the source"
const path = require("path");
const [file, origin] = process.argv.slice(2);
const mesh = require(path.resolve(file));
const out = [`# ${origin}`, `# ${mesh.positions.length} vertices, ${mesh.cells.length} faces`];
for (const p of mesh.positions) out.push(`v ${p.join(" ")}`);
for (const c of mesh.cells) out.push(`f ${c.map((i) => i + 1).join(" ")}`);
process.stdout.write(out.join("\n") + "\n");

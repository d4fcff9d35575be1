// Builds the publishable package into pkg/:
//   cargo (wasm32, release) -> wasm-bindgen (web target) -> wasm-opt
//   -> its functions ordered by likeness, its imports and exports named
//   by a letter -> the wasm, as a file or embedded (see `wasmLoading`;
//   embedded, it is LZMA-packed, with the decoder of unpack/) -> the JS
//   layer of js/ and what pkg-template/ adds (package.json, README,
//   LICENSE).
//
// Entries: js/index.js, the main entry (no top-level await: `init()`
// loads the wasm module), js/init.js (its former name, `agui-tool-calls/init`),
// js/full.js (`agui-tool-calls/full`: the same, over the module with saved
// threads), js/ag-ui.js, and the UI bindings (js/react.js, js/element.js,
// js/vue.js, js/svelte.js, js/angular.js).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, run, main } from "./lib.mjs";
import { setup, releaseToolchain } from "./setup.mjs";
import { split } from "./wasm-split.mjs";
import { ordered } from "./wasm-order.mjs";
import { renamed, renamedGlue, shortNames } from "./wasm-names.mjs";

const crate = "agui_tool_calls";
const target = path.join(root, "target");
const bindgenOut = path.join(target, "bindgen");
const pkg = path.join(root, "pkg");

/**
 * How the package loads its wasm module: `file`, a separate `.wasm` next to
 * the JS, found by `new URL(..., import.meta.url)` (which bundlers emit as
 * an asset) and compiled as it streams; or `embedded`, LZMA-packed and
 * base64 in a JS module. `npm run bench:load` measures both in Chromium.
 */
export const wasmLoading = "embedded";

/**
 * The package's two wasm modules, one per entry, with the same exports
 * (one glue serves both): the main entry's, built without the crate's
 * `saved-threads` feature (`load` refuses, its reader left out: 3.4 KB
 * gzip less for every page), and `agui-tool-calls/full`'s, with every
 * feature. Each entry imports its `bytes` module, which hands the module
 * (embedded, or the URL of its `file`) to the loader.
 */
export const wasmModules = {
  main: { cargo: ["--no-default-features"], out: bindgenOut, bytes: "wasm-bytes.js", file: `${crate}_bg.wasm` },
  full: { cargo: [], out: path.join(bindgenOut, "full"), bytes: "wasm-bytes-full.js", file: `${crate}_full_bg.wasm` },
};

// The features rustc enables by default for wasm32-unknown-unknown; wasm-opt
// must be told, or it rejects (or mis-optimises) the module.
export const wasmFeatures = [
  "--enable-bulk-memory",
  "--enable-nontrapping-float-to-int",
  "--enable-sign-ext",
  "--enable-mutable-globals",
  "--enable-reference-types",
  "--enable-multivalue",
];

/**
 * The page downloads the module gzipped, so these flags aim at its gzip
 * size, not its raw size: `-Oz` inlines every function with one caller,
 * which makes the code 2% smaller raw but 6% bigger gzip (the inlined
 * copies no longer repeat one another). That inlining capped at 20
 * instructions measured smallest gzip of the caps tried; with `-O3` and
 * the smallest functions (up to 5 instructions, 2 by default) always
 * inlined, the per-event time matches `-Oz`'s, for 0.3 KB gzip over `-O2`
 * (`docs/size.md`).
 */
export const wasmOptLevel = [
  "-O3",
  // Its passes again until they change nothing: 0.13 KB gzip smaller and
  // 2-5% faster per event than one round, on the core as it now is.
  "--converge",
  "--one-caller-inline-max-function-size=20",
  "--always-inline-max-function-size=5",
  // Rust's wasm32 layout puts the stack first, below 1 MB, and nothing at
  // the lowest kilobyte but the stack's overflowing end: address offsets
  // can fold into loads and stores (0.3 KB gzip).
  "--low-memory-unused",
];

/**
 * `opt-level = "z"` caps LLVM's inlining at a cost of 5 (for every
 * function, whatever `#[inline]` says), so small hot helpers stay calls on
 * every event; `opt-level = "s"` or 2 are 1.4x to 1.9x faster but 10 to 35
 * KB gzip bigger. An explicit threshold replaces that cap for the whole
 * link (fat LTO included): 25 cut the core's time per event by 12-14%
 * for 1.1 KB gzip; 30 or 35 cut 2-6% more for 2 KB more, over the budget.
 * Since `TOOL_CALL_ARGS` events are matched by fixed bytes, 20 is within
 * 1-3% of 25 on the bench streams, for 0.3 KB gzip less (`docs/size.md`).
 * Given with `--config` so that it applies to this release build of the
 * module alone, not to tests or native builds.
 */
const rustcFlags = [
  "-Cllvm-args=-inline-threshold=20",
  // A panic is a trap, at once: no message, location or formatting is
  // linked for it, in this crate or in the standard library, which
  // `-Zbuild-std` rebuilds with these flags (5.7 KB gzip, `docs/size.md`).
  // The package never relies on a panic's message: a trap is reported as
  // `TrackerTrappedError` either way.
  "-Zunstable-options",
  "-Cpanic=immediate-abort",
  // No file names, lines or columns for `#[track_caller]` sites either
  // (0.1 KB gzip).
  "-Zlocation-detail=none",
];

/**
 * The standard library as rebuilt for the module: `optimize_for_size`
 * picks its smaller implementations where it has two (0.5 KB gzip).
 */
const buildStd = ["-Zbuild-std=std,panic_abort", "-Zbuild-std-features=optimize_for_size"];

/**
 * The release module's own target directory: the standard library it
 * rebuilds, and the nightly's artifacts, stay apart from the stable
 * builds of tests and checks.
 */
const releaseTarget = path.join(target, "release-wasm");

function compile() {
  for (const module of Object.values(wasmModules)) compileModule(module);
  if (wasmLoading === "embedded") compileUnpack();
}

/** One of `wasmModules`: cargo, wasm-bindgen, then wasm-opt into its `out`. */
function compileModule({ cargo, out }) {
  const rustflags = `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(rustcFlags)}`;
  run("cargo", [
    `+${releaseToolchain}`, "build", "--release", "--lib",
    "--target", "wasm32-unknown-unknown",
    ...cargo,
    ...buildStd,
    "--target-dir", releaseTarget,
    "--config", rustflags,
  ]);
  run("wasm-bindgen", [
    "--target", "web",
    "--no-typescript",
    "--out-dir", out,
    path.join(releaseTarget, "wasm32-unknown-unknown", "release", `${crate}.wasm`),
  ]);
  const wasmOpt = path.join(root, "node_modules", ".bin", "wasm-opt");
  const optimised = path.join(out, `${crate}_opt.wasm`);
  run(wasmOpt, [...wasmOptLevel, "--strip-debug", "--strip-producers", "--strip-target-features", ...wasmFeatures, path.join(out, `${crate}_bg.wasm`), "-o", optimised]);
  // Then each function after the one most like it (scripts/wasm-order.mjs):
  // the same program, 1.3 KB less LZMA; and its imports and exports named
  // by a letter, as glue() names them in the JS (scripts/wasm-names.mjs).
  const names = shortNames(readFileSync(path.join(out, `${crate}_bg.wasm`)));
  writeFileSync(optimised, renamed(ordered(readFileSync(optimised)), names));
}

/** Where the decoder of the embedded module is built. */
export const unpackWasm = path.join(bindgenOut, "unpack.wasm");

/**
 * The LZMA decoder (unpack/, no_std), by the same nightly as the module:
 * `core` rebuilt with immediate-abort panics, so no panic message or
 * location is linked (5.5 KB -> 2.4 KB raw).
 */
function compileUnpack() {
  const flags = ["-Clink-arg=-zstack-size=16384", "-Zunstable-options", "-Cpanic=immediate-abort", "-Zlocation-detail=none"];
  run("cargo", [
    `+${releaseToolchain}`, "build", "--release", "--lib",
    "--manifest-path", path.join(root, "unpack", "Cargo.toml"),
    "--target", "wasm32-unknown-unknown",
    "-Zbuild-std=core,panic_abort",
    "--target-dir", path.join(releaseTarget, "unpack"),
    "--config", `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(flags)}`,
  ]);
  const built = path.join(releaseTarget, "unpack", "wasm32-unknown-unknown", "release", "agui_tool_calls_unpack.wasm");
  run(path.join(root, "node_modules", ".bin", "wasm-opt"), ["-O3", "--strip-debug", "--strip-producers", "--strip-target-features", ...wasmFeatures, built, "-o", unpackWasm]);
}

/**
 * The glue, less its asynchronous loading (`__wbg_load`, the default
 * export `__wbg_init`, which fetches the `.wasm` next to it): the package
 * compiles the module in its own loader (`js/wasm-*.js`) and starts it
 * with `initSync`, and bundlers warn about (or copy) a file that is never
 * used. 0.6 KB gzip less on the page.
 */
function glue() {
  const [main, full] = [wasmModules.main, wasmModules.full].map(({ out }) => readFileSync(path.join(out, `${crate}.js`), "utf8"));
  if (main !== full) throw new Error("the two wasm modules' glue differs: their exports must be the same (see wasmModules)");
  // The modules' imports and exports by the names compileModule gave them.
  const [names, fullNames] = [wasmModules.main, wasmModules.full].map(({ out }) => shortNames(readFileSync(path.join(out, `${crate}_bg.wasm`))));
  if (JSON.stringify([...names]) !== JSON.stringify([...fullNames])) throw new Error("the two wasm modules import or export different names (see wasmModules)");
  const source = renamedGlue(main, names);
  const at = (text) => {
    const i = source.indexOf(text);
    if (i < 0 || source.indexOf(text, i + 1) >= 0) throw new Error(`the wasm-bindgen glue changed (${text}): update glue() in scripts/build.mjs`);
    return i;
  };
  const load = at("async function __wbg_load(");
  const initSync = at("function initSync(");
  const init = at("let __wbg_init_promise;");
  const exports = "export { initSync, __wbg_init as default };";
  const end = at(exports);
  if (!(load < initSync && initSync < init && init < end)) throw new Error("the wasm-bindgen glue changed (its order): update glue() in scripts/build.mjs");
  return source.slice(0, load) + source.slice(initSync, init) + "export { initSync };" + source.slice(end + exports.length);
}

/**
 * What a page downloads is minified (terser: compressed, names mangled),
 * 3 KB gzip less than with its comments and indentation stripped, and
 * ships a source map beside each module (`<name>.map`, with its sources'
 * text), so that stack traces and debuggers show the lines of js/ (the map
 * names each source by its path in this repository). `preamble` goes on
 * line 1 (V8's compile hint, `compileHint`).
 */
async function minify(name, preamble, bundleMap, dir = pkg) {
  // Imported here: this script runs before setup has installed node_modules.
  const { minify: terser } = await import("terser");
  const file = path.join(dir, name);
  const source = sourceName(name);
  // The embedded modules' strings and the entries' re-exports: nothing to map.
  const generated = generatedModules.includes(name);
  const { code, map } = await terser(
    { [source]: readFileSync(file, "utf8") },
    {
      module: true,
      ecma: 2022,
      compress: { passes: 2 },
      format: { preamble, comments: false },
      // A bundle's map (`bundlePage`) leads through it to each of its sources.
      sourceMap: generated ? false : { filename: name, url: `${name}.map`, includeSources: true, content: bundleMap },
    },
  );
  writeFileSync(file, code);
  if (!generated) writeFileSync(`${file}.map`, map);
}

/**
 * What a page module's source map names as its source: its path in this
 * repository, or `generated/` for the wasm-bindgen glue.
 */
function sourceName(name) {
  if (name === "wasm-load.js") return `js/${loaders[wasmLoading]}`;
  if (name === `${crate}.js`) return `generated/${name}`;
  return `js/${name}`;
}

/** The modules minified without a source map: two lines each, or one string. */
const generatedModules = ["index.js", "init.js", "full.js", ...Object.values(wasmModules).map((m) => m.bytes)];

/**
 * Bundles `bundledIntoTracker` into `dir`'s tracker.js with Rollup,
 * removing their files (but the glue's, which the worker warm-up loads);
 * returns the bundle's source map, whose sources are js/'s.
 */
async function bundlePage(dir = pkg) {
  // Imported here: this script runs before setup has installed node_modules.
  const { rollup } = await import("rollup");
  const own = new Set(bundledIntoTracker);
  const bundle = await rollup({
    input: path.join(dir, "tracker.js"),
    // Every import is relative (`./x.js`; Rollup asks again with the
    // resolved path): anything not bundled stays an import.
    external: (id, importer) => importer !== undefined && !own.has(path.basename(id)),
    onwarn: (warning) => {
      throw new Error(`rollup: ${warning.message}`);
    },
  });
  const { output } = await bundle.generate({
    format: "es",
    sourcemap: true,
    sourcemapPathTransform: (relative) => sourceName(path.basename(relative)),
  });
  await bundle.close();
  const chunks = output.filter((o) => o.type === "chunk");
  if (chunks.length !== 1) throw new Error(`rollup: expected one chunk, got ${chunks.map((o) => o.fileName)}`);
  writeFileSync(path.join(dir, "tracker.js"), chunks[0].code);
  for (const name of bundledIntoTracker) if (name !== `${crate}.js`) rmSync(path.join(dir, name));
  return chunks[0].map;
}

/**
 * Rebuilds the page's tracker.js in `dir`, a copy of pkg/, with `loader`
 * (a file exporting what js/wasm-embedded.js does) as its loader, bundled
 * and minified as the build does: for benchmarks that compare ways of
 * loading the module, or (`edit(dir)`, run on the copied sources before
 * they are bundled) variants of the JS layer.
 */
export async function rebundleTracker(dir, loader, edit = () => {}) {
  copyTrackerSources(dir, loader);
  edit(dir);
  await minify("tracker.js", compileHint, await bundlePage(dir), dir);
}

/**
 * Copies the sources of `tracker.js` into `dir` (a copy of pkg/, whose
 * glue stays), with `loader` as its `wasm-load.js`.
 */
export function copyTrackerSources(dir, loader = path.join(root, "js", loaders[wasmLoading])) {
  for (const name of ["tracker.js", ...bundledIntoTracker]) {
    if (name === "wasm-load.js") cpSync(loader, path.join(dir, name));
    else if (name !== `${crate}.js`) cpSync(path.join(root, "js", name), path.join(dir, name));
  }
}

/** Writes pkg/ afresh with the glue and each module's bytes module; returns the modules' bytes by name. */
async function assemble() {
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, `${crate}.js`), glue());
  const built = {};
  for (const [name, { out, bytes, file }] of Object.entries(wasmModules)) {
    const wasm = (built[name] = readFileSync(path.join(out, `${crate}_opt.wasm`)));
    if (wasmLoading === "file") {
      writeFileSync(path.join(pkg, file), wasm);
      writeFileSync(path.join(pkg, bytes), fileSource(name, file));
    } else writeFileSync(path.join(pkg, bytes), await embedded(wasm, name));
  }
  return built;
}

/**
 * The module as a JS module: its split form (code apart from operands,
 * scripts/wasm-split.mjs), LZMA, then base64, with its decoder
 * (unpack/, base64), handed to the loader as named `name` (a key of
 * `wasmModules`). With the page's JS, 86.8 KB gzip where zopfli's gzip
 * stream of the module as it is gives 99.8 KB, for 15-20 ms of unpacking
 * on a cold page (`npm run bench:load`; docs/size.md, "The module
 * embedded as LZMA" and "The code section split by operand"). `xz`
 * writes the stream: `pb=0` (wasm code is bytes, not aligned
 * words) and, on the split form, `lc=1` measured smallest (0.6 KB under
 * `lc=3`, which was smallest on the module as it is). Each string is
 * named once, as an argument (see `provide` in js/wasm-embedded.js).
 */
export async function embedded(wasm, name = "main") {
  const xz = spawnSync("xz", ["--format=lzma", "--lzma1=preset=9e,lc=1,lp=0,pb=0", "--stdout"], { input: split(wasm), maxBuffer: 1 << 30 });
  if (xz.status !== 0) throw new Error(`xz failed (${xz.error?.message ?? xz.stderr}): npm run setup installs it`);
  return (
    "// Generated by scripts/build.mjs: the optimised wasm module's split form, LZMA, base64, and its decoder.\n" +
    'import { provide } from "./tracker.js";\n' +
    `provide(${JSON.stringify(name)}, ${wasm.length}, "${readFileSync(unpackWasm).toString("base64")}", "${xz.stdout.toString("base64")}");\n`
  );
}

/** The bytes module of a module shipped as a file: its URL, spelt for bundlers to find. */
export function fileSource(name, file) {
  return `// Generated by scripts/build.mjs.\nimport { provide } from "./tracker.js";\nprovide(${JSON.stringify(name)}, new URL("./${file}", import.meta.url));\n`;
}

/** The embedded text must give back each module byte for byte, through the loader the package ships. */
async function checkEmbedding(built) {
  for (const [name, wasm] of Object.entries(built)) {
    if (!Buffer.from(await embeddedBytes(pkg, name)).equals(wasm)) throw new Error(`pkg/${wasmModules[name].bytes} does not decode to the wasm module`);
  }
}

/**
 * Module `name` (a key of `wasmModules`) embedded in the package at
 * `dir`, unpacked by the package's own loader: for checks and benchmarks
 * that need its bytes.
 */
export async function embeddedBytes(dir, name = "main") {
  await import(pathToFileURL(path.join(dir, wasmModules[name].bytes)).href);
  const { unpacked } = await import(pathToFileURL(path.join(dir, "tracker.js")).href);
  return unpacked(name).slice();
}

const loaders = { embedded: "wasm-embedded.js", file: "wasm-file.js" };

function addJsLayer() {
  for (const dir of ["js", "pkg-template"]) {
    for (const name of readdirSync(path.join(root, dir))) {
      if (dir === "js" && Object.values(loaders).includes(name)) continue;
      // The records' declarations are for type-checking js/, not for users;
      // js/package.json marks js/ as ES modules for the tests.
      if (dir === "js" && (name === "wire.d.ts" || name === "package.json")) continue;
      cpSync(path.join(root, dir, name), path.join(pkg, name), { recursive: true });
    }
  }
  cpSync(path.join(root, "js", loaders[wasmLoading]), path.join(pkg, "wasm-load.js"));
  cpSync(path.join(root, "LICENSE"), path.join(pkg, "LICENSE"));
}

/**
 * V8's explicit compile hint (Chromium 136+; a comment elsewhere): compile
 * every function of the module as it loads, off the main thread, rather
 * than each on its first call, during the page's first stream. Measured
 * with bench/perf/cold-chromium.mjs: the first 1 KB stream 134 -> 119
 * µs/event, the import's main-thread time unchanged. On line 1, as
 * `minify` writes it.
 */
const compileHint = "//# allFunctionsCalledOnLoad";

/** Every entry point package.json exports (`.`, `./full`, `./react`, `./ag-ui`) must ship. */
function checkExports() {
  const { exports } = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8"));
  for (const [entry, target] of Object.entries(exports)) {
    for (const file of typeof target === "string" ? [target] : Object.values(target)) {
      if (!existsSync(path.join(pkg, file))) throw new Error(`package.json exports ${entry} as ${file}, which pkg/ lacks`);
    }
  }
}

/**
 * What a page downloads: the entry and the modules it imports, and the
 * wasm module; the main entry's, and `agui-tool-calls/full`'s. The worker
 * warm-up (`warm.js`, `warm-worker.js` and the glue the worker loads,
 * only with `init({ warmUp: "worker" })`) is apart: `warmUpModules`.
 */
const pagesModules = Object.fromEntries(
  Object.entries(wasmModules).map(([name, { bytes, file }]) => [
    name,
    [name === "main" ? "index.js" : `${name}.js`, "tracker.js", bytes, ...(wasmLoading === "file" ? [file] : [])],
  ]),
);
/**
 * The tracker's own modules, which Rollup bundles into `tracker.js` (both
 * entries' one import besides their bytes): one module gzipped 2.3 KB
 * smaller than the first six apart (gzip shares nothing across files),
 * and a page without a bundler makes a request fewer per module. The
 * loader and the wasm-bindgen glue too: 0.5 KB gzip less than as files
 * of their own (`docs/size.md`, "The loader and the glue in the tracker's
 * module"), so the package's modules that need either import it from
 * `tracker.js` (which re-exports them), and `bench/load.bench.mjs` swaps
 * the loader with `rebundleTracker`. The glue's file stays in the package
 * for the worker warm-up alone; the modules' bytes stay files of their own.
 */
export const bundledIntoTracker = ["snapshot.js", "patched-list.js", "partial-value.js", "next-run.js", "processing.js", "resume.js", "outgoing.js", "arguments.js", "warm-up.js", "wasm-text.js", "wasm-load.js", `${crate}.js`];
/**
 * The bindings, each an entry of its own with the shared store
 * (`store.js`): never in the main entry's module graph, minified like the
 * page's modules and measured apart.
 */
const bindingModules = {
  react: ["react.js", "store.js", "actions.js"],
  element: ["element.js", "store.js", "actions.js"],
  vue: ["vue.js", "store.js", "actions.js"],
  // Its component ships as source, for the application's Svelte compiler.
  svelte: ["svelte.js", "store.js", "actions.js", "svelte-tool-calls.svelte"],
  angular: ["angular.js", "store.js", "actions.js"],
};
/** What `init({ warmUp: "worker" })` adds to a page's downloads. */
const warmUpModules = ["warm.js", "warm-worker.js", `${crate}.js`];
/** The modules whose code a stream runs: compiled eagerly (`compileHint`). */
const compileHinted = ["tracker.js"];
/**
 * The budget of the whole package as a page loads it (wasm + JS, gzip):
 * the 100 KB it has to keep. The 1.1 features had taken it to 112.3 KB;
 * the module embedded as LZMA (-8.9 KB), the main entry's modules bundled
 * into one (-1.8 KB), Talc for dlmalloc (-1.5 KB) and no float formatter
 * (-1.1 KB) brought it to 99.3 KB (`docs/size.md`, "Back under 100 KB:
 * LZMA, one module, Talc"). Then saved threads left out of the main
 * entry's module (`docs/size.md`, "Saved threads in a module of their
 * own"): the main entry's page 96.4 KB, the full entry's 100.1 KB. Then
 * the loader and the glue bundled into `tracker.js` (-0.5 KB), numbers
 * read and written by the host's `Number` and `String` (-4.0 KB) and the
 * id maps salted in wasm (+0.6 KB; `docs/size.md`, "Back to serde_json's
 * B-tree, and salted id maps"): 92.2 KB, kept within 93 KB, and 95.9 KB,
 * within 97 KB. Then the module's code split by operand before LZMA
 * (-5.3 KB; `docs/size.md`, "The code section split by operand"): 86.8
 * KB and 90.3 KB. Then the functions ordered by likeness (-1.3 KB;
 * `docs/size.md`, "Functions ordered by likeness") and the imports and
 * exports named by a letter (-0.7 KB; "Short import and export names"):
 * 84.9 KB, kept within the 85 KB goal, and 88.2 KB, within 89 KB. Then
 * a JSON value of the crate's own for serde_json's, whose objects were a
 * B-tree (-1.5 KB; `docs/size.md`, "A JSON value of the package's own")
 * and a hash table of its own for the standard library's (-1.2 KB; "A
 * hash table of the package's own"): 82.3 KB and 85.7 KB.
 */
const budgetBytes = { main: 85 * 1024, full: 89 * 1024 };

/** Sizes as a user downloads them, checked against the budget. */
function reportSizes() {
  const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const pages = {};
  for (const [name, modules] of Object.entries(pagesModules)) {
    const wasm = path.join(wasmModules[name].out, `${crate}_opt.wasm`);
    pages[name] = modules.reduce((sum, f) => sum + gz(path.join(pkg, f)), 0);
    console.log(`\nwasm (${name}): ${kb(readFileSync(wasm).length)} raw, ${kb(gz(wasm))} gzip`);
    console.log(`package as a page loads it through ${modules[0]} (${modules.slice(1).join(", ")}): ${kb(pages[name])} gzip, budget ${kb(budgetBytes[name])}`);
  }
  console.log(`the worker warm-up (${warmUpModules.join(", ")}): ${kb(warmUpModules.reduce((sum, f) => sum + gz(path.join(pkg, f)), 0))} gzip more`);
  for (const [name, files] of Object.entries(bindingModules)) {
    if (files.some((f) => Object.values(pagesModules).flat().includes(f))) throw new Error(`the ${name} binding must stay out of the page's modules`);
    console.log(`the ${name} binding (${files.join(", ")}): ${kb(files.reduce((sum, f) => sum + gz(path.join(pkg, f)), 0))} gzip more`);
  }
  for (const [name, page] of Object.entries(pages)) {
    if (page > budgetBytes[name]) throw new Error(`the package through ${pagesModules[name][0]} is ${kb(page)} gzip, over its budget of ${kb(budgetBytes[name])}`);
  }
}

/** Compiles and assembles pkg/ (setup must have run). */
export async function buildPackage() {
  compile();
  const built = await assemble();
  addJsLayer(); // before the check: pkg/package.json makes its .js files ES modules
  const bundleMap = await bundlePage();
  const bindings = [...new Set(Object.values(bindingModules).flat())];
  for (const name of new Set([...Object.values(pagesModules).flat(), "init.js", ...warmUpModules, ...bindings])) {
    if (name.endsWith(".js")) await minify(name, compileHinted.includes(name) ? compileHint : undefined, name === "tracker.js" ? bundleMap : undefined);
  }
  checkExports();
  if (wasmLoading === "embedded") await checkEmbedding(built);
  reportSizes();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(async () => {
    setup();
    await buildPackage();
  });
}

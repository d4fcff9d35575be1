// Loading in Node: importing any entry starts nothing and awaits nothing
// (no top-level await); `init()` loads the module, and in Node a tracker
// made before it loads the module synchronously; a warm-up runs only
// when the application asks for one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pkgDir, root } from "./support/paths.mjs";

const entries = { ".": "index.js", "./init": "init.js", "./full": "full.js", "./react": "react.js", "./ag-ui": "ag-ui.js" };
const href = (file) => JSON.stringify(pathToFileURL(path.join(pkgDir, file)).href);

/** Runs `body` (ESM) in a fresh Node process after `prelude`, the main entry imported as `pkg`; its stdout. */
function freshProcess(prelude, body) {
  const source = `${prelude}\nconst pkg = await import(${href("index.js")});\n${body}`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  return child.stdout.trim();
}

test("no entry has top-level await: each loads through require() (which refuses one)", () => {
  const require = createRequire(path.join(pkgDir, "package.json"));
  for (const [entry, file] of Object.entries(entries)) {
    assert.equal(typeof require(path.join(pkgDir, file)), "object", entry);
  }
});

test("importing every entry starts nothing: no timer, no idle callback, no worker, no compile, no fetch", () => {
  // Every way to schedule work, counted from before the imports to a few
  // turns of the event loop after them.
  const spies = `
    const calls = [];
    const spy = (owner, name) => { const f = owner[name]; if (typeof f === "function") owner[name] = function (...a) { calls.push(name); return f.apply(this, a); }; };
    for (const name of ["setTimeout", "setInterval", "setImmediate", "requestIdleCallback", "fetch"]) spy(globalThis, name);
    for (const name of ["compile", "instantiate", "compileStreaming", "instantiateStreaming"]) spy(WebAssembly, name);
    const NativeModule = WebAssembly.Module;
    WebAssembly.Module = function (...a) { calls.push("Module"); return new NativeModule(...a); };
    globalThis.Worker = class { constructor() { calls.push("Worker"); } };`;
  const imports = Object.values(entries).map((file) => `await import(${href(file)});`).join("\n");
  const source = `${spies}\n${imports}\nconst { initialized, warmed } = await import(${href("tracker.js")});
    const before = [...calls];
    await new Promise((resolve) => setTimeout(resolve, 50));
    console.log(JSON.stringify({ before, initialized: initialized(), warmed: await warmed() }));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), { before: [], initialized: false, warmed: false });
});

test("init loads the module once, one promise; every entry exports the same classes", async () => {
  const main = await import("../../pkg/index.js");
  const initEntry = await import("../../pkg/init.js");
  assert.equal(main.ToolCallTracker, initEntry.ToolCallTracker);
  assert.equal(main.init, initEntry.init);
  const first = main.init();
  assert.equal(main.init({ warmUp: "off" }), first, "one load, one promise");
  assert.equal(await first, undefined);
  const tracker = new main.ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  assert.equal(tracker.snapshot().run.status, "running");
});

test("in Node, a tracker made before init() loads the module synchronously, and init() then resolves at once", () => {
  const out = freshProcess(
    "",
    `const t = new pkg.ToolCallTracker(); t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    let settled = false; pkg.init().then(() => (settled = true)); await null;
    console.log(t.snapshot().run.status, settled);`,
  );
  assert.equal(out, "running true");
});

test("outside Node (a browser, Node before 20.16), a tracker before init() is refused, naming init", () => {
  const out = freshProcess(
    "delete process.getBuiltinModule;",
    `try { new pkg.ToolCallTracker(); } catch (e) { console.log(e.message); }
    await pkg.init();
    const t = new pkg.ToolCallTracker(); t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" }); console.log(t.snapshot().run.status);`,
  );
  assert.equal(out, "agui-tool-calls: await init() before creating a ToolCallTracker\nrunning");
});

test("init refuses options it cannot read, even once the module is ready; warmUp refuses a mode it does not know", async () => {
  const { init, warmUp } = await import("../../pkg/index.js");
  await init({ warmUp: "off" });
  for (const options of ["fast", 1, { warmUp: "no" }, { warmUp: 0 }, { warmUp: true }, { warmUp: "Idle" }]) {
    assert.throws(() => init(options), { name: "TypeError", message: 'init(options): options must be { warmUp?: "idle" | "worker" | "off" }' });
  }
  for (const mode of ["off", "Idle", 1, null]) {
    assert.throws(() => warmUp(mode), { name: "TypeError", message: 'warmUp(mode): mode must be "idle" or "worker"' });
  }
  await init(null);
});

test("in Node: no warm-up unless asked for; the idle one on the event loop's next turn unless a tracker was fed first; once; no worker", async () => {
  const { warm } = await import("../../pkg/warm.js");
  assert.equal(await warm(new Promise(() => {}), []), false);
  // Its timer does not keep the process alive: a process with nothing
  // else to do exits without running it. These keep theirs alive.
  const warmedAfter = (ask, fed) =>
    freshProcess(
      "",
      `${ask}
      const tracker = new pkg.ToolCallTracker();
      ${fed ? 'tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });' : ""}
      const alive = setTimeout(() => {}, 60_000);
      const { warmed } = await import(${href("tracker.js")});
      console.log(await warmed());
      clearTimeout(alive);`,
    );
  assert.equal(warmedAfter("await pkg.init();", false), "false");
  assert.equal(warmedAfter('await pkg.init({ warmUp: "idle" });', false), "true");
  assert.equal(warmedAfter('await pkg.init({ warmUp: "idle" });', true), "false");
  assert.equal(warmedAfter("await pkg.init(); void pkg.warmUp();", false), "true");
  assert.equal(warmedAfter('void pkg.warmUp("worker");', false), "false");
  const once = freshProcess("", `const alive = setTimeout(() => {}, 60_000);
    const a = pkg.warmUp(); console.log(a === pkg.warmUp("worker"), await a);
    clearTimeout(alive);`);
  assert.equal(once, "true true");
  const idle = freshProcess(
    "",
    `void pkg.warmUp();
    const { warmed } = await import(${href("tracker.js")});
    let state = "pending";
    warmed().then((ran) => (state = String(ran)));
    process.on("exit", () => console.log(state));`,
  );
  assert.equal(idle, "pending");
});

test("the package declares every entry, each with its own declarations", () => {
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  for (const [entry, file] of Object.entries(entries)) {
    assert.equal(manifest.exports[entry].default, `./${file}`, entry);
    assert.equal(manifest.exports[entry].types, `./${file.replace(/\.js$/, ".d.ts")}`, entry);
  }
  // What works at import: the tracker's entries and their bytes' modules
  // hand the wasm module to the loader (each entry imports its bytes for
  // that effect alone: a bundler that thought them pure would drop the
  // import), and the element entry defines its custom elements.
  assert.deepEqual(manifest.sideEffects, ["./index.js", "./init.js", "./full.js", "./wasm-bytes.js", "./wasm-bytes-full.js", "./element.js"]);
});

test("in Node, loading the module does not load Node's fetch implementation", () => {
  // Bytes through fetch, Response or DecompressionStream would load
  // undici, about 9% of a cold process; the module is unpacked in place.
  const loaded = freshProcess("", "await pkg.init(); console.log(process.moduleLoadList.filter((m) => m.includes('undici')).join(','))");
  assert.equal(loaded, "");
});

test("without Node's builtins, the module loads through init() alone", () => {
  // As in a browser, or Node before 20.16: no process.getBuiltinModule.
  const out = freshProcess(
    "delete process.getBuiltinModule;",
    "await pkg.init(); const t = new pkg.ToolCallTracker(); t.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }); console.log(t.snapshot().run.status)",
  );
  assert.equal(out, "running");
});

test("the module a stream runs carries V8's compile hint on line 1", () => {
  assert.equal(readFileSync(path.join(pkgDir, "tracker.js"), "utf8").split("\n")[0], "//# allFunctionsCalledOnLoad");
});

test("the tracker bundles its own modules, the loader and the glue, no page module imports one of them, and each entry's graph holds its own wasm module alone", () => {
  const bundled = ["snapshot.js", "patched-list.js", "partial-value.js", "next-run.js", "processing.js", "resume.js", "outgoing.js", "arguments.js", "warm-up.js", "wasm-text.js", "wasm-load.js"];
  for (const name of bundled) assert.ok(!existsSync(path.join(pkgDir, name)), `${name} ships apart`);
  const imports = (name) => [...readFileSync(path.join(pkgDir, name), "utf8").matchAll(/(?:from|import)\s*["']\.\/([^"']+)["']/g)].map((m) => m[1]);
  assert.deepEqual(imports("tracker.js"), []);
  assert.deepEqual(imports("index.js").sort(), ["tracker.js", "wasm-bytes.js"]);
  assert.deepEqual([...new Set(imports("full.js"))].sort(), ["tracker.js", "wasm-bytes-full.js"]);
  for (const bytes of ["wasm-bytes.js", "wasm-bytes-full.js"]) assert.deepEqual(imports(bytes), ["tracker.js"], bytes);
  // The glue ships as a file for the worker warm-up alone, which loads
  // its own instance of the module.
  assert.deepEqual(imports("warm-worker.js"), ["agui_tool_calls.js"]);
  // The entries export what their declarations declare, not the tracker
  // module's exports for the package's own modules.
  const declared = (file) => [...readFileSync(path.join(pkgDir, file), "utf8").matchAll(/^export declare (?:class|function) (\w+)/gm)].map((m) => m[1]).sort();
  for (const entry of ["index.js", "full.js", "init.js"]) {
    const source = `console.log(Object.keys(await import(${href(entry)})).sort().join(" "))`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), declared("index.d.ts").join(" "), entry);
  }
  assert.deepEqual(imports("init.js"), ["index.js"]);
  // The adapter reaches the tracker's error class without naming an entry.
  assert.ok(imports("ag-ui.js").includes("tracker.js") && !imports("ag-ui.js").some((f) => f === "index.js" || f === "full.js"));
});

test("the minified page modules map back to js/: each source map carries its sources", () => {
  const repo = path.join(pkgDir, "..");
  const built = {
    "tracker.js": [
      "js/partial-value.js",
      "js/patched-list.js",
      "js/snapshot.js",
      "js/next-run.js",
      "js/processing.js",
      "js/resume.js",
      "js/outgoing.js",
      "js/arguments.js",
      "js/warm-up.js",
      "js/wasm-text.js",
      "js/tracker.js",
      "js/wasm-embedded.js",
      "generated/agui_tool_calls.js",
    ],
  };
  for (const [name, sources] of Object.entries(built)) {
    const source = readFileSync(path.join(pkgDir, name), "utf8");
    assert.ok(source.endsWith(`\n//# sourceMappingURL=${name}.map`), name);
    const map = JSON.parse(readFileSync(path.join(pkgDir, `${name}.map`), "utf8"));
    assert.deepEqual([...map.sources].sort(), [...sources].sort(), name);
    map.sources.forEach((file, i) => {
      // The wasm-bindgen glue, as the build trims it, has no file in the repository.
      if (file.startsWith("generated/")) assert.match(map.sourcesContent[i], /export class WasmTracker/, `${name}: ${file}`);
      else assert.equal(map.sourcesContent[i], readFileSync(path.join(repo, file), "utf8"), `${name}: ${file}`);
    });
  }
});

test("with source maps enabled, a stack trace names the line of js/tracker.js that threw", () => {
  const line = readFileSync(path.join(pkgDir, "..", "js", "tracker.js"), "utf8").split("\n").findIndex((l) => l.includes("options.onEvent must be a function")) + 1;
  assert.ok(line > 0);
  const entry = pathToFileURL(path.join(pkgDir, "index.js")).href;
  const source = `const pkg = await import(${JSON.stringify(entry)});\nawait pkg.init();\ntry { new pkg.ToolCallTracker({ onEvent: 1 }); } catch (e) { console.log(e.stack.split("\\n")[1]); }`;
  const child = spawnSync(process.execPath, ["--enable-source-maps", "--input-type=module", "-e", source], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  assert.match(child.stdout, new RegExp(`js/tracker\\.js:${line}:\\d+`));
});

test("the package README's quick start, as written, connects in Node 20 ESM", async () => {
  // Its module resolves `agui-tool-calls` and `@ag-ui/client` from an app whose node_modules holds them.
  const { fixtureApp, quickStart } = await import("./support/bundle.mjs");
  const app = fixtureApp("bundle-init");
  const file = path.join(app, "quick-start.mjs");
  writeFileSync(file, quickStart());
  const { connect } = await import(pathToFileURL(file).href);
  const { agent, tracker } = await connect();
  assert.equal(typeof agent.runAgent, "function");
  assert.equal(tracker.snapshot().run.status, "idle");
  tracker.free();
});

test("the two wasm loaders keep one load state, line for line, but for how they compile", () => {
  // Two copies by decision (docs/size.md, "The loaders' state"): the
  // package ships one of them; this keeps them from drifting apart.
  const state = (file) => {
    const text = readFileSync(path.join(root, "js", file), "utf8");
    const from = text.indexOf("let loading;");
    const to = text.indexOf("export const warmed = ");
    assert.ok(from > 0 && to > from, file);
    // How each compiles, and reads its bytes synchronously in Node
    // (`loadNow`), differs by design; the comments may say so.
    return text
      .slice(from, to)
      .replace(/\/\*\*[\s\S]*?\*\/\n/g, "")
      .replace(/^  compiled = .*$/m, "  compiled = <compile>;")
      .replace(/^export function loadNow\(\) \{\n[\s\S]*?\n\}\n/m, "<loadNow>\n");
  };
  assert.equal(state("wasm-embedded.js"), state("wasm-file.js"));
});

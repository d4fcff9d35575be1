// The two entries in Node: the main one is ready on import; the init one
// (no top-level await) needs `await init()` first and says so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pkgDir, root } from "./support/paths.mjs";

/** Runs `body` (ESM) in a fresh Node process after `prelude`, the package imported as `pkg`; its stdout. */
function freshProcess(prelude, body) {
  const entry = pathToFileURL(path.join(pkgDir, "index.js")).href;
  const source = `${prelude}\nconst pkg = await import(${JSON.stringify(entry)});\n${body}`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  return child.stdout.trim();
}

test("the init entry has no top-level await and refuses a tracker before init", async () => {
  const source = readFileSync(path.join(pkgDir, "init.js"), "utf8");
  assert.doesNotMatch(source, /^\s*await\b/m);
  const { init, ToolCallTracker } = await import("../../pkg/init.js");
  // The main entry may already have loaded the module in this process: not here.
  assert.throws(() => new ToolCallTracker(), /await init\(\) before creating a ToolCallTracker/);
  const first = init();
  assert.equal(init(), first, "one load, one promise");
  assert.equal(await first, undefined);
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  assert.equal(tracker.snapshot().run.status, "running");
});

test("the main entry exports the same classes, ready", async () => {
  const main = await import("../../pkg/index.js");
  const initEntry = await import("../../pkg/init.js");
  assert.equal(main.ToolCallTracker, initEntry.ToolCallTracker);
  assert.equal(main.ToolCallStreamError, initEntry.ToolCallStreamError);
  await main.init();
  assert.equal(new main.ToolCallTracker().snapshot().version, 0);
});

test("init refuses options it cannot read, even once the module is ready", async () => {
  const { init } = await import("../../pkg/init.js");
  await init({ warmUp: "off" });
  for (const options of ["fast", 1, { warmUp: "no" }, { warmUp: 0 }, { warmUp: true }, { warmUp: "Idle" }]) {
    assert.throws(() => init(options), { name: "TypeError", message: 'init(options): options must be { warmUp?: "idle" | "worker" | "off" }' });
  }
  await init(null);
});

test("in Node, the default warm-up runs on the event loop's next turn unless a tracker was fed first; no worker starts", async () => {
  const { warm } = await import("../../pkg/warm.js");
  assert.equal(await warm(new Promise(() => {}), []), false);
  // Its timer does not keep the process alive: a process with nothing
  // else to do exits without running it. These keep theirs alive.
  const warmedAfter = (fed) =>
    freshProcess(
      "",
      `const tracker = new pkg.ToolCallTracker();
      ${fed ? 'tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });' : ""}
      const alive = setTimeout(() => {}, 60_000);
      const { warmed } = await import(${JSON.stringify(pathToFileURL(path.join(pkgDir, "wasm-load.js")).href)});
      console.log(await warmed());
      clearTimeout(alive);`,
    );
  assert.equal(warmedAfter(false), "true");
  assert.equal(warmedAfter(true), "false");
  const idle = freshProcess(
    "",
    `const { warmed } = await import(${JSON.stringify(pathToFileURL(path.join(pkgDir, "wasm-load.js")).href)});
    let state = "pending";
    warmed().then((ran) => (state = String(ran)));
    process.on("exit", () => console.log(state));`,
  );
  assert.equal(idle, "pending");
});

test("the package declares both entries", () => {
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  assert.equal(manifest.exports["."].default, "./index.js");
  assert.equal(manifest.exports["./init"].default, "./init.js");
  assert.equal(manifest.exports["./init"].types, "./index.d.ts");
});

test("in Node, loading the module does not load Node's fetch implementation", () => {
  // The gunzip through DecompressionStream + Response would load undici,
  // about 9% of a cold process; Node's zlib does it synchronously.
  const loaded = freshProcess("", "console.log(process.moduleLoadList.filter((m) => m.includes('undici')).join(','))");
  assert.equal(loaded, "");
});

test("without Node's zlib, the module loads through DecompressionStream", () => {
  // As in a browser, or Node before 20.16: no process.getBuiltinModule.
  const out = freshProcess(
    "delete process.getBuiltinModule;",
    "const t = new pkg.ToolCallTracker(); t.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }); console.log(t.snapshot().run.status)",
  );
  assert.equal(out, "running");
});

test("the modules a stream runs carry V8's compile hint on line 1, their lines still those of js/", () => {
  const lines = (file) => readFileSync(file, "utf8").split("\n");
  for (const name of ["init.js", "snapshot.js", "partial-value.js", "next-run.js", "agui_tool_calls.js"]) {
    assert.equal(lines(path.join(pkgDir, name))[0], "//# allFunctionsCalledOnLoad", name);
  }
  assert.equal(lines(path.join(pkgDir, "init.js")).length, lines(path.join(pkgDir, "..", "js", "index.js")).length);
  assert.equal(lines(path.join(pkgDir, "snapshot.js")).length, lines(path.join(pkgDir, "..", "js", "snapshot.js")).length);
});

test("the two wasm loaders keep one load state, line for line, but for how they compile", () => {
  // Two copies by decision (docs/size.md, "The loaders' state"): the
  // package ships one of them; this keeps them from drifting apart.
  const state = (file) => {
    const text = readFileSync(path.join(root, "js", file), "utf8");
    const from = text.indexOf("let loading;");
    const to = text.indexOf("export const warmed = () => warming;");
    assert.ok(from > 0 && to > from, file);
    return text.slice(from, to).replace(/^  const compiled = .*$/m, "  const compiled = <compile>;");
  };
  assert.equal(state("wasm-embedded.js"), state("wasm-file.js"));
});

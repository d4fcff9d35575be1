// The package in a Next.js App Router app (tests/js/fixtures/next-app: a
// "use client" chat on HttpAgent using the main entry, `/init`, `/react`,
// `/ag-ui` and `/element`, a page that restores a saved thread through
// `/full`, and a route handler using the main entry on the server; `/vue`, `/angular` and `/svelte`, whose frameworks are not
// the app's, are loaded by tests/js/bundlers.test.mjs and the binding
// suites), with Next.js 15 and 16, each with
// the dependencies its own lockfile pins (tests/js/fixtures/next15,
// next16), installed once by `npm ci` (a stamp keeps the lockfile's
// digest) in a directory of the system's temporary one, kept between runs
// (inside the repository, Next.js would take the repository's own lockfile
// for a workspace's and warn; the app has no configuration at all). Each version is built once (`next build`: webpack
// for 15, Turbopack for 16, their defaults) and run by `next start`, and
// its dev server runs (below: which bundlers). Neither prints a warning,
// nor does the page's console.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchChromium } from "./support/chromium.mjs";
import { fixturesDir, pkgDir, root } from "./support/paths.mjs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
delete env.NODE_ENV; // each command sets its own

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const apps = new Map();
/** The app of Next.js `version` (a directory of the system's temporary one), its dependencies installed from its lockfile (once per lockfile), its sources laid once per run. */
const nextApp = (version) => apps.get(version) ?? apps.set(version, layApp(version)).get(version);

function layApp(version) {
  const deps = path.join(fixturesDir, `next${version}`);
  // One per checkout: two checkouts' runs do not share it.
  const checkout = createHash("sha256").update(root).digest("hex").slice(0, 12);
  const app = path.join(tmpdir(), `agui-tool-calls-next${version}-${checkout}`);
  mkdirSync(app, { recursive: true });
  const lock = readFileSync(path.join(deps, "package-lock.json"));
  const digest = createHash("sha256").update(lock).digest("hex");
  const stamp = path.join(app, "node_modules", ".fixture-stamp");
  if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== digest) {
    for (const file of ["package.json", "package-lock.json"]) cpSync(path.join(deps, file), path.join(app, file));
    const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: app, encoding: "utf8" });
    assert.equal(ci.status, 0, ci.stdout + ci.stderr);
    writeFileSync(stamp, digest);
  }
  // The app's sources and the package as built now (as `npm install` leaves it: a copy).
  for (const dir of ["app", ".next"]) rmSync(path.join(app, dir), { recursive: true, force: true });
  cpSync(path.join(fixturesDir, "next-app"), app, { recursive: true });
  const installed = path.join(app, "node_modules", "agui-tool-calls");
  rmSync(installed, { recursive: true, force: true });
  cpSync(pkgDir, installed, { recursive: true });
  return app;
}

/** Runs `next` with `args` in `app` to its end; its output. */
function next(app, args) {
  const result = spawnSync(process.execPath, [path.join(app, "node_modules", "next", "dist", "bin", "next"), ...args], { cwd: app, env, encoding: "utf8" });
  const output = result.stdout + result.stderr;
  assert.equal(result.status, 0, output);
  return output;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `next <command>` in `app` on a free port; resolves { url, output(), close } once it serves. */
async function serve(app, command, args = []) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(app, "node_modules", "next", "dist", "bin", "next"), command, "-p", String(port), "-H", "127.0.0.1", ...args], { cwd: app, env, detached: true });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!/Ready in|started server/i.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`next ${command} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const close = async () => {
    try {
      process.kill(-child.pid, "SIGTERM"); // the server and the workers it started
    } catch {}
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  };
  return { url, output: () => output, close };
}

/**
 * Warnings in Next's output: its `⚠` lines and any line naming a warning,
 * but for two that say nothing of the package: the one Next prints about
 * the app's own CI setup when `CI` is set (no build cache kept between
 * runs), and the one Next 16's dev server prints when the machine's disk
 * answered its start-up probe slowly (a busy machine: "Slow filesystem
 * detected").
 */
const warningsIn = (output) =>
  output
    .split("\n")
    .filter((line) => /⚠|warn/i.test(line))
    .filter((line) => !/No build cache found|Slow filesystem detected/.test(line));

/** A new page whose errors, and the console's errors and warnings, go into `problems`. */
async function watchedPage() {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => ["error", "warning"].includes(m.type()) && !m.location()?.url?.endsWith("/favicon.ico") && problems.push(`console ${m.type()}: ${m.text()}`));
  return { page, problems };
}

/** Opens the chat, runs it, and returns `window.result`, the calls rendered and the console's errors and warnings. */
async function chat(url) {
  const { page, problems } = await watchedPage();
  try {
    await page.goto(url, { timeout: 180_000 });
    await page.waitForSelector("button[data-hydrated]", { timeout: 180_000 });
    await page.click("button");
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector("#calls li")?.textContent.includes(".js"), null, { timeout: 10_000 }).catch(() => {});
    const result = await page.evaluate(() => window.result);
    const rendered = await page.evaluate(() => document.querySelector("#calls").textContent);
    return { result, rendered, problems };
  } finally {
    await page.close();
  }
}

/** Opens the page that restores a saved thread (`agui-tool-calls/full`); its `window.result` and the console's errors and warnings. */
async function restored(url) {
  const { page, problems } = await watchedPage();
  try {
    await page.goto(`${url}/restore`, { timeout: 180_000 });
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 180_000 });
    return { result: await page.evaluate(() => window.result), problems };
  } finally {
    await page.close();
  }
}

const expectedRestored = { result: { standingApprovals: [{ tool: "deploy", toolCallId: "c1" }] }, problems: [] };

const expected = {
  result: { sameModule: true, run: "finished", calls: [["search", "complete", { q: "next.js" }]], element: ["search"] },
  rendered: 'search: {"q":"next.js"}',
  problems: [],
};

/** The route handler ran the package on the server: it checked its own stream. */
async function serverChecked(url) {
  const response = await fetch(`${url}/api/agent`, { method: "POST", body: JSON.stringify({ threadId: "t", runId: "r" }) });
  await response.text();
  return response.headers.get("x-checked");
}

// Each version's default bundler, in the build and the dev server: webpack
// for 15, Turbopack for 16. AGUI_NEXT_ALL_BUNDLERS=1 adds the dev server
// with the other one (`next dev --turbopack` for 15, `--webpack` for 16),
// about a third more time.
const allBundlers = process.env.AGUI_NEXT_ALL_BUNDLERS === "1";
for (const [version, builder, devBundlers] of [
  ["15", "webpack", [[], ...(allBundlers ? [["--turbopack"]] : [])]],
  ["16", "Turbopack", [[], ...(allBundlers ? [["--webpack"]] : [])]],
]) {
  test(`next.js ${version}: next build (${builder}) and next start, every entry, no warning`, { timeout: 900_000 }, async () => {
    const app = nextApp(version);
    const built = next(app, ["build"]);
    assert.deepEqual(warningsIn(built), []);
    const server = await serve(app, "start");
    try {
      assert.deepEqual(await chat(server.url), expected);
      assert.equal(await serverChecked(server.url), "finished");
      assert.deepEqual(await restored(server.url), expectedRestored);
      assert.deepEqual(warningsIn(server.output()), []);
    } finally {
      await server.close();
    }
  });

  for (const args of devBundlers) {
    const bundler = args.length ? args[0].slice(2) : version === "15" ? "webpack" : "turbopack";
    test(`next.js ${version}: next dev (${bundler}), every entry, no warning`, { timeout: 600_000 }, async () => {
      const server = await serve(nextApp(version), "dev", args);
      try {
        assert.deepEqual(await chat(server.url), expected);
        assert.equal(await serverChecked(server.url), "finished");
        assert.deepEqual(await restored(server.url), expectedRestored);
        assert.deepEqual(warningsIn(server.output()), []);
      } finally {
        await server.close();
      }
    });
  }
}

// Production builds of a fixture app against pkg/, with each bundler's
// default configuration (no plugins, no config file), and a page runner.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import assert from "node:assert/strict";
import { fixturesDir, pkgDir, root } from "./paths.mjs";

/** The package README's quick start, as written (a ```ts block that is plain JS too). */
export function quickStart() {
  const readme = readFileSync(path.join(root, "pkg-template", "README.md"), "utf8");
  return readme.match(/## Quick start[^\n]*\n\n```ts\n([\s\S]*?)```/)[1];
}

/**
 * A temporary copy of a fixture app whose node_modules has the package,
 * React, Vue, Svelte, Angular and @ag-ui/client (whose own dependencies resolve from its real
 * path, the repository's node_modules). `copy`: the package copied, as `npm install` leaves it (a dev
 * server treats a symlink out of the app as source, not a dependency).
 */
export function fixtureApp(fixture, { copy = false } = {}) {
  const app = mkdtempSync(path.join(tmpdir(), "agui-app-"));
  cpSync(path.join(fixturesDir, fixture), app, { recursive: true });
  // The warm-up worker's spy, shared by the bundle fixtures (`import "../spy.js"`).
  cpSync(path.join(fixturesDir, "bundle-spy.js"), path.join(app, "spy.js"));
  // The application's side of the framework binding apps (\`import "./harness.js"\`).
  cpSync(path.join(fixturesDir, "binding-harness.js"), path.join(app, "harness.js"));
  if (existsSync(path.join(app, "src"))) writeFileSync(path.join(app, "src", "quick-start.js"), quickStart());
  mkdirSync(path.join(app, "node_modules"));
  if (copy) cpSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), { recursive: true });
  else symlinkSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), "dir");
  for (const dep of ["react", "react-dom", "scheduler", "@ag-ui", "vue", "svelte", "@angular", "rxjs"]) {
    symlinkSync(path.join(root, "node_modules", dep), path.join(app, "node_modules", dep), "dir");
  }
  return app;
}

/**
 * `vite build` through the JS API of the given vite module (`vite`,
 * `vite5`, `vite6`); returns the output directory. `warnings`, when given,
 * receives every warning the build printed; `plugins`, a framework's
 * plugins (the default configuration otherwise).
 */
export async function viteBuild(fixture, vite = "vite", warnings = [], { plugins } = {}) {
  const { build, createLogger } = await import(vite);
  const app = fixtureApp(fixture);
  const outDir = path.join(app, "dist");
  const customLogger = { ...createLogger("error"), warn: (message) => warnings.push(message), warnOnce: (message) => warnings.push(message) };
  await build({ root: app, logLevel: "error", customLogger, configFile: false, build: { outDir }, plugins });
  return outDir;
}

/** A Vite dev server (default configuration) over the fixture app; returns { url, close }. */
export async function viteDev(fixture, vite = "vite") {
  const { createServer } = await import(vite);
  const app = fixtureApp(fixture, { copy: true });
  const server = await createServer({ root: app, configFile: false, logLevel: "error", server: { port: 0, host: "127.0.0.1" } });
  await server.listen();
  return { url: server.resolvedUrls.local[0].replace(/\/$/, ""), close: () => server.close() };
}

/**
 * `webpack` through webpack-cli with no config file (entry ./src/index.js,
 * output dist/main.js), production mode; adds a page loading the bundle
 * (webpack writes no HTML without a plugin). Returns the output directory;
 * `warnings` receives every warning webpack printed.
 */
export async function webpackBuild(fixture, warnings = []) {
  const app = fixtureApp(fixture);
  const cli = path.join(root, "node_modules", "webpack-cli", "bin", "cli.js");
  const result = spawnSync(process.execPath, [cli, "--mode", "production"], { cwd: app, encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  for (const [warning] of (result.stdout + result.stderr).matchAll(/^WARNING[^\n]*(\n\s+[^\n]*)*/gm)) warnings.push(warning);
  const dist = path.join(app, "dist");
  writeFileSync(path.join(dist, "index.html"), '<!doctype html>\n<meta charset="utf-8">\n<div id="root"></div>\n<script src="main.js"></script>\n');
  return dist;
}

/**
 * Opens `url` in a new page of `browser` and returns `window.result` once
 * set (page errors fail the test, and so do console errors and warnings
 * with `{ console: true }`).
 */
export async function resultOf(browser, url, timeout = 30_000, { console: strict = false } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The browser's own request for a favicon (the fixtures have none) is not the page's.
  const own = (m) => !m.location()?.url?.endsWith("/favicon.ico");
  if (strict) page.on("console", (m) => ["error", "warning"].includes(m.type()) && own(m) && errors.push(`console ${m.type()}: ${m.text()}`));
  await page.goto(url);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout }).catch(() => {});
  const result = await page.evaluate(() => window.result);
  await page.close();
  assert.deepEqual(errors, []);
  return result;
}

// `npm run demo`: a live chat against the demo agent, in the browser.
//   setup -> build the package -> build the page with Vite (no plugins)
//   -> start the agent and a static server for the page, both on 127.0.0.1.
//
//   PORT (default 4173) is the page's port, PACE (default 40) the delay
//   between the agent's events in ms.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, main } from "./lib.mjs";
import { setup } from "./setup.mjs";
import { buildPackage } from "./build.mjs";

const HOST = "127.0.0.1";
const pageSource = path.join(root, "examples", "demo");
const pageOut = path.join(root, "target", "demo");

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Builds the page into target/demo/, importing the package from pkg/ (which must be built). */
export async function buildPage() {
  // Imported here so that `npm run demo` can install vite (setup) before it loads.
  const { build } = await import("vite");
  const pkg = path.join(root, "pkg");
  await build({
    root: pageSource,
    configFile: false,
    logLevel: "warn",
    resolve: {
      alias: [
        { find: /^agui-tool-calls\/react$/, replacement: path.join(pkg, "react.js") },
        { find: /^agui-tool-calls\/full$/, replacement: path.join(pkg, "full.js") },
      ],
    },
    // The package embeds its wasm module in JS, so the page is one ~640 KB chunk (~200 KB gzip).
    build: { outDir: pageOut, emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  });
}

/** Serves the built page, and `config.json` telling it where the agent is. */
async function servePage(port, config) {
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, `http://${HOST}`);
    if (pathname === "/config.json") {
      res.writeHead(200, { "content-type": types[".json"], "cache-control": "no-store" });
      return res.end(JSON.stringify(config));
    }
    const file = path.join(pageOut, pathname === "/" ? "index.html" : decodeURIComponent(pathname));
    if (!file.startsWith(pageOut + path.sep)) return res.writeHead(404).end("not found");
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, resolve);
  });
  return server;
}

/**
 * Builds the page and starts the agent (any free port) and the page server.
 * @param {{ pace?: number, port?: number }} [options] `port` 0 picks a free port.
 * @returns {Promise<{ url: string, endpoint: string, close: () => Promise<void> }>}
 */
export async function startDemo({ pace = 40, port = 0 } = {}) {
  await buildPage();
  const { startAgentServer } = await import("../examples/agent-server.mjs");
  const agent = await startAgentServer({ port: 0, pace });
  let server;
  try {
    server = await servePage(port, { endpoint: agent.endpoint });
  } catch (error) {
    await agent.close();
    throw error;
  }
  const url = `http://${HOST}:${server.address().port}/`;
  const close = async () => {
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
    await agent.close();
  };
  return { url, endpoint: agent.endpoint, close };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(async () => {
    setup();
    await buildPackage();
    const { url, close } = await startDemo({ pace: Number(process.env.PACE ?? 40), port: Number(process.env.PORT ?? 4173) });
    console.log(`\nThe demo is at ${url}  (open it as 127.0.0.1: the agent accepts that origin only; Ctrl-C stops)`);
    const stop = () => close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

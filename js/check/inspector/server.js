// @ts-check
// `agui-tool-calls inspect`: a local server for the inspector page. It
// serves the page, the package's own modules (the page checks streams in
// the browser with the same wasm core) and the files named on the command
// line, on 127.0.0.1 only. Nothing is uploaded: the server has no route that
// takes data, and the page sends none.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPORT_CSS, esc } from "../report/html.js";
import { INSPECTOR_CSS } from "./style.js";

/** The package's root: the directory of cli.js and index.js. */
const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Serves the inspector for `files` until `close()`: `{ url, close }`.
 * `options` (the core's) and `limits` (the reading limits) go to the page.
 */
export async function serveInspector({ files, options, limits, port = 0, version = "" }) {
  const inputs = files.map((file, id) => ({ id, name: file, path: path.resolve(file) }));
  const server = createServer((req, res) => {
    handle(req, res, { inputs, options, limits, version, port: listeningPort(server) }).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error?.message ?? error));
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(undefined));
  });
  const url = `http://127.0.0.1:${listeningPort(server)}/`;
  return {
    url,
    close: () =>
      /** @type {Promise<void>} */ (new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      })),
  };
}

/** The port a server listening on TCP took. */
function listeningPort(server) {
  return /** @type {import("node:net").AddressInfo} */ (server.address()).port;
}

const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  // The page loads nothing from elsewhere, and cannot send anything out.
  "content-security-policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'",
};

async function handle(req, res, site) {
  // A page of another origin cannot reach this server through a DNS name
  // that resolves here (DNS rebinding): only the loopback names are served.
  const host = req.headers.host ?? "";
  if (host !== `127.0.0.1:${site.port}` && host !== `localhost:${site.port}`) {
    res.writeHead(403, { "content-type": "text/plain" }).end("forbidden host");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" }).end();
    return;
  }
  const url = new URL(req.url, "http://127.0.0.1");
  if (url.pathname === "/") return send(res, 200, "text/html; charset=utf-8", page(site));
  if (url.pathname === "/inputs.json") {
    const list = await Promise.all(site.inputs.map(async (i) => ({ id: i.id, name: i.name, size: await sizeOf(i.path) })));
    return send(res, 200, "application/json", JSON.stringify(list));
  }
  const input = /^\/inputs\/(\d+)$/.exec(url.pathname);
  if (input) return sendInput(res, site.inputs[Number(input[1])]);
  if (url.pathname.startsWith("/pkg/")) return sendModule(res, url.pathname.slice("/pkg/".length));
  send(res, 404, "text/plain", "not found");
}

function send(res, status, type, body) {
  res.writeHead(status, { "content-type": type, ...HEADERS });
  res.end(body);
}

async function sizeOf(file) {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

/** A named input's bytes, or a 404 the page reports as that input's error. */
async function sendInput(res, input) {
  if (input === undefined) return send(res, 404, "text/plain", "no such input");
  let info;
  try {
    info = await stat(input.path);
  } catch (error) {
    return send(res, 404, "text/plain", error.code === "ENOENT" ? "no such file" : error.message);
  }
  if (!info.isFile()) return send(res, 404, "text/plain", "not a file");
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": info.size, ...HEADERS });
  createReadStream(input.path).on("error", () => res.destroy()).pipe(res);
}

/** The package's own ES modules, and nothing else of the disk. */
async function sendModule(res, rel) {
  const file = path.resolve(PACKAGE, decodeURIComponent(rel));
  // Inside the package (which itself may well sit in a node_modules), never
  // in a dependency of it.
  const inside = path.relative(PACKAGE, file);
  if (inside.startsWith("..") || path.isAbsolute(inside) || inside.split(path.sep).includes("node_modules") || path.extname(file) !== ".js") {
    return send(res, 404, "text/plain", "not found");
  }
  try {
    await stat(file);
  } catch {
    return send(res, 404, "text/plain", "not found");
  }
  res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", ...HEADERS });
  createReadStream(file).pipe(res);
}

function page(site) {
  const config = JSON.stringify({ options: site.options, limits: site.limits, version: site.version }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>AG-UI stream inspector</title>
<style>${REPORT_CSS}${INSPECTOR_CSS}</style></head>
<body data-state="loading">
<header class="no-print"><h1>AG-UI stream inspector <small>agui-tool-calls ${esc(site.version)}</small></h1>
<div id="drop" class="drop">Drop JSON Lines, text/event-stream, curl captures or HAR files here, or <label class="pick">pick files<input id="pick" type="file" multiple hidden></label>. They are checked in this page: nothing is uploaded.</div></header>
<h2 id="totals" class="totals"></h2>
<main id="results"></main>
<script type="application/json" id="config">${config}</script>
<script type="module" src="/pkg/check/inspector/page.js"></script>
</body></html>
`;
}

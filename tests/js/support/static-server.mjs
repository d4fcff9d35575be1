// A static file server on 127.0.0.1 for the browser tests, on a free port.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/**
 * Serves `mounts` ({ urlPrefix: directory }) and returns { url, close }.
 * `headers` are added to every response (a test sets a strict CSP this way).
 */
export async function serveStatic(mounts, headers = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
      const file = path.join(dir, rel);
      if (!file.startsWith(path.resolve(dir))) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream", ...headers });
        res.end(body);
        return;
      } catch {
        break;
      }
    }
    res.writeHead(404).end("not found");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

// What an app downloads for the package, for React and ReactDOM, and for
// @ag-ui/client's HttpAgent: each imported alone by a one-line app, built
// by Vite 8 for production (minified, its default configuration), its
// JavaScript summed raw and gzipped (level 9). The package README's "Size"
// section quotes these. `npm run bench:sizes` (after `npm run build`).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const apps = {
  "agui-tool-calls (init, a tracker)": 'import { init, ToolCallTracker } from "agui-tool-calls";\ninit().then(() => (window.tracker = new ToolCallTracker()));\n',
  "agui-tool-calls/full (init, a tracker)": 'import { init, ToolCallTracker } from "agui-tool-calls/full";\ninit().then(() => (window.tracker = new ToolCallTracker()));\n',
  "react + react-dom (a root rendering one element)":
    'import { createElement } from "react";\nimport { createRoot } from "react-dom/client";\ncreateRoot(document.body).render(createElement("p", null, "hi"));\n',
  "@ag-ui/client (an HttpAgent)": 'import { HttpAgent } from "@ag-ui/client";\nwindow.agent = new HttpAgent({ url: "/api/agent" });\n',
};

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const work = mkdtempSync(path.join(tmpdir(), "agui-sizes-"));
try {
  for (const [name, source] of Object.entries(apps)) {
    const app = mkdtempSync(path.join(work, "app-"));
    mkdirSync(path.join(app, "node_modules"));
    symlinkSync(path.join(root, "pkg"), path.join(app, "node_modules", "agui-tool-calls"), "dir");
    for (const dep of ["react", "react-dom", "scheduler", "@ag-ui"]) symlinkSync(path.join(root, "node_modules", dep), path.join(app, "node_modules", dep), "dir");
    writeFileSync(path.join(app, "main.js"), source);
    writeFileSync(path.join(app, "index.html"), '<script type="module" src="./main.js"></script>\n');
    const outDir = path.join(app, "dist");
    await build({ root: app, logLevel: "error", configFile: false, build: { outDir } });
    let raw = 0;
    let gzip = 0;
    for (const file of readdirSync(path.join(outDir, "assets"))) {
      const bytes = readFileSync(path.join(outDir, "assets", file));
      raw += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
    console.log(`${name}: ${kb(gzip)} gzip, ${kb(raw)} minified`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Every TypeScript and TSX block of both READMEs (README.md and the
// package's, pkg-template/README.md), each compiled as written, as a file
// of its own in an app whose node_modules holds the built package (pkg/),
// React's types, Angular's and @ag-ui/client: once with the compiler options of
// Vite's React + TypeScript template (create-vite, Vite 6: ES2020 and DOM
// libs, --strict, unused locals and parameters refused; with Vite 7's
// verbatimModuleSyntax and erasableSyntaxOnly too), once with those of
// create-next-app (Next.js 15).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pkgDir, root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");

const configs = {
  vite: {
    target: "ES2020",
    useDefineForClassFields: true,
    lib: ["ES2020", "DOM", "DOM.Iterable"],
    module: "ESNext",
    skipLibCheck: true,
    moduleResolution: "bundler",
    allowImportingTsExtensions: true,
    isolatedModules: true,
    moduleDetection: "force",
    noEmit: true,
    jsx: "react-jsx",
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noFallthroughCasesInSwitch: true,
    noUncheckedSideEffectImports: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
  },
  next: {
    target: "ES2017",
    lib: ["dom", "dom.iterable", "esnext"],
    allowJs: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    module: "esnext",
    moduleResolution: "bundler",
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: "preserve",
  },
};

/** The ```ts and ```tsx blocks of a markdown file, with their line numbers. */
export function codeBlocks(file) {
  const text = readFileSync(path.join(root, file), "utf8");
  const blocks = [];
  for (const match of text.matchAll(/^```(tsx?)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split("\n").length;
    blocks.push({ file, line, lang: match[1], source: match[2] });
  }
  return blocks;
}

const blocks = [...codeBlocks("README.md"), ...codeBlocks("pkg-template/README.md")];

test("both READMEs have TypeScript blocks to check", () => {
  assert.ok(codeBlocks("README.md").length >= 1);
  assert.ok(codeBlocks("pkg-template/README.md").length >= 6);
});

/** An app under target/ with every block as a file of its own; tsc's output. */
function compile(name, options) {
  const app = path.join(root, "target", "readme-types", name);
  rmSync(app, { recursive: true, force: true });
  mkdirSync(path.join(app, "src"), { recursive: true });
  mkdirSync(path.join(app, "node_modules", "@types"), { recursive: true });
  symlinkSync(pkgDir, path.join(app, "node_modules", "agui-tool-calls"), "dir");
  for (const dep of ["react", "@ag-ui", "@types/react", "@angular", "rxjs"]) symlinkSync(path.join(root, "node_modules", dep), path.join(app, "node_modules", dep), "dir");
  const files = blocks.map((b) => {
    const file = `src/${b.file.replace(/\W/g, "_")}_line${b.line}.${b.lang}`;
    writeFileSync(path.join(app, file), b.source);
    return file;
  });
  writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }, null, 2));
  return spawnSync(tsc, ["-p", app], { encoding: "utf8" });
}

for (const [name, options] of Object.entries(configs)) {
  test(`every TypeScript block of both READMEs compiles with the ${name === "vite" ? "Vite React-TS template's" : "Next.js template's"} options, as written`, () => {
    const result = compile(name, options);
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });
}

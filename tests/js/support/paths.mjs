import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const pkgDir = path.join(root, "pkg");
export const fixturesDir = path.join(root, "tests", "js", "fixtures");

// `npm start`: installs what is missing, builds the package, then checks the
// recorded example streams with the package's own checker and prints its
// report.
//
// Several example streams are broken on purpose, so the checker exits 2 for
// them; that is the expected report, not a failure of `npm start`. It fails
// only when the checker could not do its job: an input it could not read
// (an `error:` line), or an exit status other than 0, 1 or 2.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root, main } from "./lib.mjs";
import { setup } from "./setup.mjs";
import { buildPackage } from "./build.mjs";

const streamsDir = path.join("examples", "streams");

function exampleStreams() {
  return readdirSync(path.join(root, streamsDir))
    .filter((f) => f.endsWith(".jsonl") || f.endsWith(".sse"))
    .sort()
    .map((f) => path.join(streamsDir, f));
}

function checkExamples() {
  const args = [path.join("pkg", "cli.js"), "check", ...exampleStreams()];
  console.log(`\n$ node ${args.slice(0, 2).join(" ")} ${streamsDir}/*.{jsonl,sse}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" });
  if (result.error) throw result.error;
  process.stderr.write(result.stderr);
  if (![0, 1, 2].includes(result.status)) throw new Error(`the checker failed (exit status ${result.status})`);
  if (/^error:/m.test(result.stderr)) throw new Error("the checker could not read every example stream");
  console.log(`\nThe checker exited ${result.status}: some example streams are broken on purpose (see ${streamsDir}/README.md).`);
}

main(async () => {
  setup();
  await buildPackage();
  checkExamples();
});

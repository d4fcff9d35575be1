// Hostile captures against the checker's command line: the time and peak
// resident memory of `agui-tool-calls check` on each, with a good stream
// after it on the command line (it must still be checked). The heavy twins
// of the small cases tests/js/checker-hostile.test.mjs runs.
//
//   node bench/captures.bench.mjs               every scenario
//   node bench/captures.bench.mjs har-nested    one scenario
//   AGUI_PKG=/path/to/pkg node bench/captures.bench.mjs   another build
//
// Peak memory is the child's VmHWM and CPU time its utime + stime, read
// from /proc while it runs (Linux): the wall time of a shared machine
// says more about the other load than about the checker.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const MiB = 1024 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = process.env.AGUI_PKG ?? path.join(root, "pkg");
const cli = path.join(pkg, "cli.js");
const good = path.join(root, "examples", "streams", "reopen.jsonl");
const tmp = mkdtempSync(path.join(tmpdir(), "agui-captures-bench-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

const ev = (e) => JSON.stringify(e) + "\n";
const events = ev({ type: "RUN_STARTED", threadId: "t", runId: "r" }) + ev({ type: "RUN_FINISHED", threadId: "t", runId: "r" });

/** 1-byte chunks of `body`, as `curl --raw -i` saves them. */
function oneByteChunks(head, size) {
  const frame = Buffer.from("1\r\n \r\n");
  const out = Buffer.alloc(head.length + size * frame.length + 5);
  out.write(head);
  for (let k = 0, at = head.length; k < size; k++, at += frame.length) frame.copy(out, at);
  out.write("0\r\n\r\n", head.length + size * frame.length);
  return out;
}

const chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

function nestedHar() {
  return gzipSync(Buffer.concat([Buffer.from('{"log": {"entries": '), Buffer.alloc(120_000_000, 0x5b), Buffer.alloc(120_000_000, 0x5d), Buffer.from("}}")]));
}

const scenarios = {
  /** A curl capture: 128 MiB of blank lines, then a run. */
  "curl-blank-lines": () => ["capture.txt", Buffer.concat([Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n\r\n"), Buffer.alloc(128 * MiB, 0x0a), Buffer.from(events)])],
  /** A HAR file nesting arrays 120 million deep (240 MB), gzipped to a few hundred KB: stopped by the gzip cap. */
  "har-nested": () => ["nested.har.gz", nestedHar()],
  /** The same with the gzip cap raised: stopped by the nesting scan. */
  "har-nested-raised": () => ["nested.har.gz", nestedHar(), ["--max-decompressed-bytes", "300000000"]],
  /** `curl --raw`: 24 MB of capture in 1-byte chunks. */
  "chunked-24mb": () => ["chunked-24.txt", oneByteChunks(chunkedHead, 4_000_000)],
  /** The same, 144 MB. */
  "chunked-144mb": () => ["chunked-144.txt", oneByteChunks(chunkedHead, 24_000_000)],
  /** 256 MiB of blank JSON Lines in 255 KB of gzip. */
  "gzip-bomb-jsonl": () => ["bomb.jsonl.gz", gzipSync(Buffer.concat([Buffer.from(events), Buffer.alloc(256 * MiB, 0x0a)]), { level: 9 })],
  /** 256 MiB of blank event-stream lines in 255 KB of gzip. */
  "gzip-bomb-sse": () => ["bomb.sse.gz", gzipSync(Buffer.concat([Buffer.from('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'), Buffer.alloc(256 * MiB, 0x0a)]), { level: 9 })],
};

/** Runs the checker on `file` then the good stream: seconds, peak RSS, status, and what it said. */
function run(file, extra = []) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "check", "--format", "json", ...extra, file, good], { env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    let peak = 0;
    let cpu = 0;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const poll = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
        // utime and stime, in clock ticks (100 a second), after the command's name.
        const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
        cpu = (Number(stat[11]) + Number(stat[12])) / 100;
      } catch {
        // exited between two polls
      }
    }, 20);
    const limit = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (status, signal) => {
      clearInterval(poll);
      clearTimeout(limit);
      let checkedGood = false;
      try {
        checkedGood = JSON.parse(stdout).streams.some((s) => s.file === good && s.verdict === "clean");
      } catch {
        // no report at all
      }
      resolve({ seconds: (performance.now() - started) / 1000, cpu, peak, status, signal, checkedGood, said: stderr.trim().split("\n")[0]?.slice(0, 160) ?? "" });
    });
  });
}

const wanted = process.argv[2];
console.log(`checker: ${cli}`);
for (const [name, make] of Object.entries(scenarios)) {
  if (wanted && name !== wanted) continue;
  const [file, bytes, extra] = make();
  const at = path.join(tmp, file);
  writeFileSync(at, bytes);
  const r = await run(at, extra);
  rmSync(at);
  const mb = (n) => (n / MiB).toFixed(0);
  console.log(
    `${name.padEnd(17)} ${mb(bytes.length).padStart(4)} MB file  ${r.seconds.toFixed(1).padStart(6)} s wall  ${r.cpu.toFixed(1).padStart(5)} s cpu  peak ${mb(r.peak).padStart(5)} MB  ` +
      `exit ${r.status ?? r.signal}  good stream checked: ${r.checkedGood ? "yes" : "NO"}  ${r.said}`,
  );
}

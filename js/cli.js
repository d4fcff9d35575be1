#!/usr/bin/env node
// @ts-check
// `agui-tool-calls check [FILE...]`: checks recorded AG-UI streams with the
// same wasm core the browser package runs, so a stream gets one verdict
// everywhere. `agui-tool-calls inspect [FILE...]` serves a page that does
// the same in the browser, and replays each stream event by event.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { init } from "./index.js";
import { checkInput, checkOptions } from "./check/check.js";
import { textReport } from "./check/report/text.js";
import { jsonReport } from "./check/report/json.js";
import { junitReport } from "./check/report/junit.js";
import { sarifReport } from "./check/report/sarif.js";
import { htmlReport } from "./check/report/html-document.js";
import { READ_LIMITS } from "./check/stream.js";
import { countVerdicts } from "./check/diagnostics.js";
import { toolsOf } from "./check/tools.js";
import { escapeControls, escapeJsonControls } from "./check/report/terminal.js";

const USAGE = `Usage: agui-tool-calls check [options] FILE...
       agui-tool-calls inspect [options] [FILE...] [--port N] [--open]

check: checks recorded AG-UI event streams against the tool-call rules.
A FILE is JSON Lines (one event a line), a raw text/event-stream capture,
a curl -i / -v / --trace capture (the protobuf binding too) or a HAR file,
any of them gzipped, told apart by its first bytes; "-" reads standard
input. A capture's request body (HAR, curl --trace) is the run input: its
tools are advertised.

inspect: serves a page on 127.0.0.1 (its URL is the first line printed)
that checks the FILEs, and any file dropped on it, in the browser, and
replays each stream event by event. Nothing leaves the machine.

Options:
  --format FORMAT       text (default), json, junit, sarif or html
  -o, --output FILE     write the report to FILE instead of standard output
  --tools FILE          the advertised tools: a JSON array of AG-UI Tool
                        objects, or {"tools": [...]} (else each run's
                        RUN_STARTED.input.tools, or the captured request's)
  --fragment            the streams may start mid-run
  --max-args-bytes N    limit on one call's argument text (bytes)
  --max-depth N         limit on the nesting depth of arguments
  --max-calls N         limit on the calls of one stream
  --max-line-bytes N    limit on one line of a stream (default 64 MiB)
  --max-capture-bytes N limit on a curl capture or HAR file, read whole
                        (default 256 MiB)
  --max-decompressed-bytes N
                        limit on what a gzipped input decompresses to
                        (default 128 MiB)
  --port N              inspect: the port (default: any free one)
  --open                inspect: open the page in the default browser
  -h, --help            this help
  -v, --version         the package version

Exit status: 0 every stream clean (warnings allowed), 1 a violation in some
stream, 2 a fatal error in some stream, an unreadable input or a usage error.
`;

const FORMATS = ["text", "json", "junit", "sarif", "html"];
const PROGRESS_FROM = 4 * 1024 * 1024;
/** Events an HTML report shows per stream in its timeline. */
const HTML_EVENTS = 5000;

class UsageError extends Error {}
/** The report could not be written where asked. */
class OutputError extends Error {}

async function main(argv) {
  // A reader that stops early (`| head`) is no error.
  process.stdout.on("error", (/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
  const rss = process.env.AGUI_CHECK_REPORT_RSS === "1" ? sampleRss() : null;
  try {
    await init(); // the wasm module, before the options are checked against it
    process.exitCode = await run(argv);
  } catch (error) {
    // Status 1 means "violations": an unexpected failure must not look like one.
    if (error instanceof UsageError) {
      say("error", error.message);
      process.stderr.write('Run "agui-tool-calls --help" for usage.\n');
    } else if (error instanceof OutputError) {
      say("error", error.message);
    } else {
      say("error", `internal error: ${error?.message ?? error}`);
      const frames = String(error?.stack ?? "").split("\n").filter((l) => l.startsWith("    at "));
      if (frames.length > 0) process.stderr.write(`${frames.join("\n")}\n`);
    }
    process.exitCode = 2;
  } finally {
    rss?.report();
  }
}

async function run(argv) {
  const args = parse(argv);
  if (args.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const [command, ...files] = args.positionals;
  if (command !== "check" && command !== "inspect") {
    throw new UsageError(command === undefined ? 'no command given ("check" or "inspect")' : `unknown command "${command}"`);
  }
  const options = trackerOptions(args.values);
  const limits = readLimits(args.values);
  if (command === "inspect") {
    if (files.includes("-")) throw new UsageError('inspect reads files, not standard input ("-")');
    return inspect(files, options, limits, args.values);
  }
  if (files.length === 0) throw new UsageError('no input: name the files to check, or "-" for standard input');
  const format = args.values.format ?? "text";
  if (!FORMATS.includes(format)) throw new UsageError(`unknown format "${format}" (${FORMATS.join(", ")})`);

  // Said before the checking, not after it.
  if (args.values.output !== undefined && statSync(args.values.output, { throwIfNoEntry: false })?.isDirectory()) {
    throw new OutputError(`cannot write the report to ${args.values.output}: it is a directory (-o takes a file name)`);
  }
  const results = [];
  const collect = format === "html" ? { maxEvents: HTML_EVENTS } : null;
  for (const file of files) {
    // Each input is checked on its own: one unreadable or oversized is
    // reported, and the others still are.
    for (const result of await checkInput(file, options, { limits, collect, progress: progressMeter })) {
      if (result.verdict === "unreadable") say("error", result.error);
      for (const note of result.verdict === "unreadable" ? result.notes ?? [] : []) say("note", note);
      results.push(result);
    }
  }
  const totals = countVerdicts(results);
  const exitCode = totals.fatal + totals.unreadable > 0 ? 2 : totals.violations > 0 ? 1 : 0;
  const report = render(format, results, totals, exitCode);
  if (args.values.output !== undefined) writeReport(args.values.output, report);
  else process.stdout.write(report);
  return exitCode;
}

/** Writes the report to `file`; a path that cannot be written is the user's error, said plainly. */
function writeReport(file, report) {
  try {
    writeFileSync(file, report);
  } catch (error) {
    const why = { EISDIR: "is a directory", ENOENT: "no such directory", EACCES: "permission denied", EPERM: "permission denied", ENOTDIR: "a part of the path is not a directory" }[error.code] ?? error.message;
    throw new OutputError(`cannot write the report to ${file}: ${why}`);
  }
}

/**
 * A line on standard error: what it quotes from a recording (an id, a
 * message, a URL) or a command line is escaped of control characters, so
 * no recording can move the cursor, retitle the terminal or erase a line.
 */
function say(kind, text) {
  process.stderr.write(`${kind}: ${escapeControls(text)}\n`);
}

/** `inspect`: serves the inspector page until interrupted. */
async function inspect(files, options, limits, values) {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes a port number, not "${values.port}"`);
  const { serveInspector } = await import("./check/inspector/server.js");
  const server = await serveInspector({ files, options, limits, port, version: packageVersion() });
  process.stdout.write(`${server.url}\n`);
  process.stdout.write(`Serving the inspector for ${files.length === 0 ? "dropped files" : files.join(", ")}; Ctrl-C stops it.\n`);
  if (values.open) openBrowser(server.url);
  await new Promise((resolve) => {
    const stop = () => server.close().then(resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

async function openBrowser(url) {
  const { spawn } = await import("node:child_process");
  const [cmd, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  const child = spawn(cmd, args, { stdio: "ignore", detached: true });
  child.on("error", () => process.stderr.write(`could not open a browser (${cmd}); open ${url}\n`));
  child.unref();
}

function readLimits(values) {
  const limits = {};
  for (const [flag, key] of [["max-line-bytes", "maxLineBytes"], ["max-capture-bytes", "maxCaptureBytes"], ["max-decompressed-bytes", "maxDecompressedBytes"]]) {
    if (values[flag] === undefined) continue;
    const n = Number(values[flag]);
    if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} takes a positive whole number, not "${values[flag]}"`);
    limits[key] = n;
  }
  return { ...READ_LIMITS, ...limits };
}

function parse(argv) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        tools: { type: "string" },
        fragment: { type: "boolean" },
        "max-args-bytes": { type: "string" },
        "max-depth": { type: "string" },
        "max-calls": { type: "string" },
        "max-line-bytes": { type: "string" },
        "max-capture-bytes": { type: "string" },
        "max-decompressed-bytes": { type: "string" },
        output: { type: "string", short: "o" },
        port: { type: "string" },
        open: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
}

/** The core's options object from the command line. */
function trackerOptions(values) {
  const options = { fragment: values.fragment ?? false };
  if (values.tools !== undefined) options.tools = readTools(values.tools);
  const limits = {};
  for (const [flag, key] of [["max-args-bytes", "maxArgsBytes"], ["max-depth", "maxDepth"], ["max-calls", "maxCalls"]]) {
    if (values[flag] === undefined) continue;
    const n = Number(values[flag]);
    if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`--${flag} takes a whole number, not "${values[flag]}"`);
    limits[key] = n;
  }
  if (Object.keys(limits).length > 0) options.limits = limits;
  try {
    checkOptions(options);
  } catch (error) {
    throw new UsageError(error.message);
  }
  return options;
}

function readTools(file) {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error.code === "ENOENT" ? "no such file" : error.message;
    throw new UsageError(`--tools ${file}: ${why}`);
  }
  try {
    return toolsOf(parsed);
  } catch (error) {
    throw new UsageError(`--tools ${file}: ${error.message}`);
  }
}

function render(format, results, totals, exitCode) {
  switch (format) {
    case "json":
      return escapeJsonControls(jsonReport(results, totals, exitCode));
    case "junit":
      return junitReport(results, totals);
    case "sarif":
      return sarifReport(results, packageVersion());
    case "html":
      return htmlReport(results, totals, packageVersion());
    default:
      return textReport(results, totals, useColour());
  }
}

function useColour() {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

function packageVersion() {
  const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  return pkg.version;
}

/** A `\r`-updated progress line on a terminal, for large files only. */
function progressMeter(label, size) {
  if (!process.stderr.isTTY || size === null || size < PROGRESS_FROM) return null;
  let read = 0;
  let shown = 0;
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  return {
    advance(n) {
      read += n;
      const now = Date.now();
      if (now - shown < 100) return;
      shown = now;
      const percent = Math.floor((read / size) * 100);
      process.stderr.write(`\r${escapeControls(label)}: ${mb(read)} of ${mb(size)} MB (${percent}%)\x1b[K`);
    },
    done() {
      if (shown !== 0) process.stderr.write("\r\x1b[K");
    },
  };
}

/** Peak resident memory, sampled every 100 ms (for the memory test). */
function sampleRss() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  timer.unref();
  return {
    report() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      process.stderr.write(`rss-peak-bytes: ${peak}\n`);
    },
  };
}

await main(process.argv.slice(2));

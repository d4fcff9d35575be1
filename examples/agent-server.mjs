// A small AG-UI agent for the live demo: POST a RunAgentInput to /agent and it
// answers with a scripted run as a text/event-stream. Loopback only.
//
//   node examples/agent-server.mjs            # PORT (default 8787), PACE ms between events (default 30)
//
// In-process: const { url, endpoint, close } = await startAgentServer({ port: 0, pace: 0 });
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { inputProblem, newThreadMemory, planRun } from "./scenarios.mjs";

const HOST = "127.0.0.1";
const MAX_BODY_BYTES = 1 << 20;
const MAX_THREADS = 1000;
// The demo page may be served from any loopback port.
const ALLOWED_ORIGIN = /^http:\/\/127\.0\.0\.1(:\d{1,5})?$/;

const DESCRIPTION = `AG-UI demo agent.
POST /agent with a RunAgentInput (JSON) to start a run; the answer is a text/event-stream.
The first run of a thread asks to deploy through the frontend tool confirm_deploy and
finishes with the call unanswered; the next run must answer it with a tool message
(HTTP 400 otherwise), and the agent replies according to the answer.
Asked for the status, it calls a tool of its own, check_status, and streams
the result (TOOL_CALL_RESULT); the next run's history must carry it too.
`;

function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

// CORS headers for an allowed origin; null when the request's origin is not allowed.
function corsHeaders(req) {
  const origin = req.headers.origin;
  if (origin === undefined) return {};
  if (!ALLOWED_ORIGIN.test(origin)) return null;
  return { "access-control-allow-origin": origin, vary: "Origin" };
}

// Rejects requests addressed to another host name, which is how DNS rebinding reaches a loopback server.
function hostIsLoopback(req, port) {
  return req.headers.host === `${HOST}:${port}` || req.headers.host === `localhost:${port}`;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      // Past the limit the rest is drained and dropped, so the 413 still reaches the client.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) reject(Object.assign(new Error("request body too large"), { status: 413 }));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamRun(res, events, pace) {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    ...res.corsHeaders,
  });
  for (const event of events) {
    if (res.destroyed) return false;
    res.write(`data: ${JSON.stringify({ ...event, timestamp: Date.now() })}\n\n`);
    if (pace > 0) await sleep(pace);
  }
  res.end();
  return true;
}

function createHandler({ pace, threads, activeThreads, port }) {
  async function handleRun(req, res) {
    let input;
    try {
      input = JSON.parse(await readBody(req));
    } catch (error) {
      sendJson(res, error.status ?? 400, { error: error.status ? error.message : "the body is not JSON" }, res.corsHeaders);
      return;
    }
    const problem = inputProblem(input);
    if (problem) {
      sendJson(res, 400, { error: problem }, res.corsHeaders);
      return;
    }
    if (activeThreads.has(input.threadId)) {
      sendJson(res, 409, { error: "a run of this thread is already streaming" }, res.corsHeaders);
      return;
    }
    if (!threads.has(input.threadId)) {
      // A demo keeps a bounded memory: the oldest thread is forgotten first.
      if (threads.size >= MAX_THREADS) threads.delete(threads.keys().next().value);
      threads.set(input.threadId, newThreadMemory());
    }
    const plan = planRun(threads.get(input.threadId), input);
    if (plan.refused) {
      sendJson(res, plan.refused.status, plan.refused.body, res.corsHeaders);
      return;
    }
    activeThreads.add(input.threadId);
    try {
      // The thread remembers a run only once its RUN_FINISHED went out.
      if (await streamRun(res, plan.events, pace)) plan.commit();
    } finally {
      activeThreads.delete(input.threadId);
    }
  }

  return (req, res) => {
    const cors = corsHeaders(req);
    if (cors === null) return sendJson(res, 403, { error: "origin not allowed" });
    if (!hostIsLoopback(req, port())) return sendJson(res, 421, { error: "unexpected host" });
    res.corsHeaders = cors;
    const path = new URL(req.url, `http://${HOST}`).pathname;
    if (path === "/agent" && req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": "content-type, accept",
        "access-control-max-age": "600",
      });
      return res.end();
    }
    if (path === "/agent" && req.method === "POST") {
      return handleRun(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: "internal error" }, cors);
        else res.destroy();
      });
    }
    if (path === "/agent") return sendJson(res, 405, { error: "use POST" }, { allow: "POST, OPTIONS", ...cors });
    if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", ...cors });
      return res.end(req.method === "HEAD" ? undefined : DESCRIPTION);
    }
    return sendJson(res, 404, { error: "not found" }, cors);
  };
}

/**
 * Starts the demo agent on 127.0.0.1.
 * @param {{ port?: number, pace?: number }} [options] port 0 picks a free port; pace is the delay between events in ms.
 * @returns {Promise<{ url: string, endpoint: string, close: () => Promise<void> }>} `url` is the server's base URL, `endpoint` the agent's.
 */
export async function startAgentServer({ port = 0, pace = 30 } = {}) {
  const state = { pace, threads: new Map(), activeThreads: new Set(), port: () => server.address().port };
  const server = createServer(createHandler(state));
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, resolve);
  });
  const url = `http://${HOST}:${server.address().port}`;
  const close = () =>
    new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // Streams in flight and idle keep-alive sockets would otherwise hold the server open.
      server.closeAllConnections();
    });
  return { url, endpoint: `${url}/agent`, close };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8787);
  const pace = Number(process.env.PACE ?? 30);
  const { endpoint, close } = await startAgentServer({ port, pace });
  console.log(endpoint);
  const stop = () => close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

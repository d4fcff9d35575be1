// A loopback AG-UI agent for `HttpAgent` tests: each POST is answered by the
// next entry of `script`, given the run input it carries. An entry returns
// the events to stream, or `{ events, open }` where `open` leaves the
// response unterminated (a stream that never ends). Loopback only.
import { createServer } from "node:http";
import { sse } from "./events.mjs";

/** Starts the agent; resolves to `{ url, inputs, script, server, close }` (`inputs`: every run input received, in order; `server`: the `http.Server`). */
export async function startScriptedAgent() {
  const inputs = [];
  const script = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const input = JSON.parse(body);
      inputs.push(input);
      const answer = script.shift()(input);
      const { events, open } = Array.isArray(answer) ? { events: answer, open: false } : answer;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sse(events));
      if (!open) res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://127.0.0.1:${server.address().port}/agent`, inputs, script, server, close };
}

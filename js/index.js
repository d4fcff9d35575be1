// The public face of the package: the ToolCallTracker class over the wasm core.
import { initSync, WasmTracker } from "./agui_tool_calls.js";
import { wasmLatin1 } from "./wasm-bytes.js";

// The module is embedded (one character per byte), so importing this file is
// all it takes in Node, a browser page, a worker or a bundler.
initSync({ module: latin1Bytes(wasmLatin1) });

function latin1Bytes(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Thrown by `push*` when the stream breaks a fatal rule. */
export class ToolCallStreamError extends Error {
  constructor(violation) {
    super(`${violation.code}: ${violation.message}`);
    this.name = "ToolCallStreamError";
    this.violation = violation;
  }
}

/** The tool-call state of one AG-UI thread. */
export class ToolCallTracker {
  #core = new WasmTracker();
  #snapshot = Object.freeze({ calls: Object.freeze([]), fatal: null });

  /** Reads one event given as JSON text. */
  pushJson(text) {
    const changes = JSON.parse(this.#core.pushJson(text));
    const calls = changes.calls.map((c) =>
      Object.freeze({ id: c.id, name: c.name, status: c.status, argsText: c.argsText }),
    );
    this.#snapshot = Object.freeze({ calls: Object.freeze(calls), fatal: changes.fatal ?? null });
    if (changes.fatal) throw new ToolCallStreamError(changes.fatal);
    return this.#snapshot;
  }

  /** Reads one event given as an object. */
  push(event) {
    return this.pushJson(JSON.stringify(event));
  }

  /** The current snapshot. */
  snapshot() {
    return this.#snapshot;
  }

  /** Releases the wasm memory of this tracker. */
  free() {
    this.#core.free();
  }
}

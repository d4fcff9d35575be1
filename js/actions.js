// @ts-check
// What every binding's <ToolCalls> gives a call's renderer: the actions
// bound to the call (and to the interrupt it awaits), and which calls a
// per-tool renderer may take. Shared by agui-tool-calls/react, /vue,
// /svelte and /angular so that they agree on both.

/**
 * `approve(options?)` (`{ remember: "tool" }` for a standing approval),
 * `decline`, `answer` and `fail`, bound to one call; for a call
 * awaiting an interrupt's approval (rule I3), `approveWithEdits(editedArgs?)`
 * (resolves it with `{ approved: true }`, the edits as `editedArgs`) and
 * `reject()` (cancels it), bound to that interrupt.
 *
 * @example
 * const { approve, answer } = bindActions(tracker, "c1");
 * approve();
 * answer("Deployed checkout.");
 *
 * @param {import("./index.js").ToolCallTracker} tracker
 * @param {string} id
 * @param {string} [interruptId]
 */
export function bindActions(tracker, id, interruptId) {
  const awaited = () => interruptId ?? fail(`tool call ${JSON.stringify(id)} awaits no interrupt`);
  return {
    /** @param {{ remember?: "tool" }} [options] */
    approve: (options) => void tracker.approve(id, options),
    /** @param {string | null} [reason] */
    decline: (reason) => void tracker.decline(id, reason),
    /** @param {string | import("./index.js").ContentPart[]} content */
    answer: (content) => void tracker.answer(id, content),
    /** @param {string} error @param {string | null} [content] */
    fail: (error, content) => void tracker.fail(id, error, content),
    /** @param {Record<string, unknown>} [editedArgs] */
    approveWithEdits: (editedArgs) =>
      void tracker.resolveInterrupt(awaited(), { approved: true }, editedArgs === undefined ? undefined : { editedArgs }),
    reject: () => void tracker.cancelInterrupt(awaited()),
  };
}

/** @param {string} message @returns {never} */
const fail = (message) => {
  throw new Error(message);
};

/**
 * Each call of `snapshot`, in first-start order, with the open interrupt
 * it awaits (if any) and the renderer it gets: `render[call.name]` for a
 * call to an advertised tool or one awaiting an interrupt's approval,
 * `fallback` for any other (or none: left out).
 *
 * @example
 * for (const { call, interrupt, renderer } of callsToRender(snapshot, { confirm_deploy: Card }, Other)) draw(renderer, call, interrupt);
 *
 * @template R
 * @param {import("./index.js").Snapshot} snapshot
 * @param {{ readonly [name: string]: R | undefined } | undefined | null} render
 * @param {R | undefined | null} fallback
 */
export function callsToRender(snapshot, render, fallback) {
  /** @type {{ call: import("./index.js").ToolCallState, interrupt: import("./index.js").InterruptState | undefined, renderer: R }[]} */
  const out = [];
  const interrupts = snapshot.interrupts.length > 0 ? new Map(snapshot.interrupts.map((i) => [i.interrupt.id, i])) : null;
  for (const call of snapshot.calls) {
    const awaited = call.awaitingInterrupt;
    const interrupt = awaited === undefined ? undefined : interrupts?.get(awaited);
    const own = (call.advertised || interrupt) && render && Object.hasOwn(render, call.name) ? render[call.name] : undefined;
    const renderer = own ?? fallback;
    if (renderer) out.push({ call, interrupt, renderer });
  }
  return out;
}

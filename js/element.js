// @ts-check
// The framework-free binding: <agui-tool-call> (one call) and
// <agui-tool-calls> (every call, in first-start order), custom elements for
// plain HTML pages and any framework.
//
//   import "agui-tool-calls/element";
//   const list = document.querySelector("agui-tool-calls");
//   list.tracker = tracker;
//   list.addEventListener("agui-approve", (e) => tracker.approve(e.detail.callId));
//
// Plain custom elements, not lit: no dependency (lit is about 5 KB gzip,
// nearly this whole entry, 6.1 KB with the store and the shared actions),
// and what lit would add (templates, a reactive update cycle) is covered by the shared store
// (./store.js), which already decides when to render: one tracker subscription per tracker for every element (and
// every React hook) on the page, at most one publication per animation
// frame, dropped when the last element leaves the document. A call element
// redraws only when its call's snapshot object changes (unchanged calls
// keep their identity), and builds its DOM with `createElement` and text
// nodes: arguments, results and tool names come from the model and are
// never parsed as markup. Styles are a constructable stylesheet
// (`adoptedStyleSheets`), which a strict CSP allows without
// 'unsafe-inline'; restyle through the `part`s and `--agui-*` properties.
//
// The buttons act on nothing: they dispatch `agui-approve` (with
// `detail.remember: "tool"` from Always allow), `agui-decline` and
// `agui-answer` (bubbling, composed, `detail.callId`), for the open
// interrupts `agui-interrupt-approve` and `agui-interrupt-reject`
// (`detail.interruptId`), and for a standing approval
// `agui-revoke-approval` (`detail.tool`); the application answers the
// tracker.
import { findCall, storeOf } from "./store.js";
import { argFieldReader, callTree } from "./actions.js";

// Importable where there is no DOM (a server rendering the rest of a page):
// the classes exist, nothing is defined.
const Base = /** @type {typeof HTMLElement} */ (globalThis.HTMLElement ?? class {});

/** The look of a call card: the demo's, every colour a `--agui-*` property. */
const css = `
:host { display: block; color: var(--agui-ink, #1d2230); font: var(--agui-font, 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); }
:host([hidden]) { display: none; }
:host(agui-tool-arg) { display: inline; }
[part~="subagent"] { display: flex; flex-direction: column; gap: var(--agui-gap, 12px); margin-left: var(--agui-indent, 18px); padding-left: 10px; border-left: 2px solid var(--agui-line, #e2e5ec); }
[part~="standing"]:not(:empty) { margin-top: var(--agui-gap, 12px); display: flex; flex-direction: column; gap: 6px; }
[part~="standing-approval"] { display: flex; align-items: center; justify-content: space-between; gap: 8px; font-size: 13px; }
.list { display: flex; flex-direction: column; gap: var(--agui-gap, 12px); }
[part~="card"] { background: var(--agui-panel, #fff); border: 1px solid var(--agui-line, #e2e5ec); border-left: 4px solid var(--agui-accent, #3b5bdb); border-radius: var(--agui-radius, 10px); padding: 10px 14px 12px; box-shadow: 0 1px 3px rgb(20 30 60 / 6%); }
[data-state="awaitingConsent"], [data-state="awaitingAnswer"], [data-state="awaitingInterrupt"], [data-state="open"] { border-left-color: var(--agui-warn, #c77700); }
[data-state="answered"], [data-state="approved"], [data-state="resolved"] { border-left-color: var(--agui-ok, #2b8a3e); }
[data-state="cancelled"] { border-left-color: var(--agui-bad, #c92a2a); }
[data-state="declined"], [data-state="abandoned"] { border-left-color: var(--agui-bad, #c92a2a); }
[part~="header"] { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
[part~="tool"] { font-family: var(--agui-mono, ui-monospace, Menlo, Consolas, monospace); font-weight: 600; overflow-wrap: anywhere; }
[part~="badge"] { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; padding: 2px 8px; border-radius: 6px; background: #edf0f5; color: var(--agui-muted, #6b7285); white-space: nowrap; }
[data-state="streaming"] [part~="badge"] { background: #e7edff; color: var(--agui-accent, #3b5bdb); }
[data-state="awaitingConsent"] [part~="badge"], [data-state="awaitingAnswer"] [part~="badge"], [data-state="awaitingInterrupt"] [part~="badge"], [data-state="open"] [part~="badge"] { background: #fff4e0; color: var(--agui-warn, #c77700); }
[data-state="answered"] [part~="badge"], [data-state="approved"] [part~="badge"], [data-state="resolved"] [part~="badge"] { background: #e6f4ea; color: var(--agui-ok, #2b8a3e); }
[data-state="declined"] [part~="badge"], [data-state="abandoned"] [part~="badge"], [data-state="cancelled"] [part~="badge"] { background: #fdecec; color: var(--agui-bad, #c92a2a); }
[part~="prompt"] { margin: 8px 0 0; font-weight: 600; overflow-wrap: anywhere; }
.interrupts { display: flex; flex-direction: column; gap: var(--agui-gap, 12px); }
.interrupts:not(:empty) { margin-top: var(--agui-gap, 12px); }
[part~="args"] { margin: 8px 0; padding: 8px 10px; background: var(--agui-code-bg, #f7f8fb); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 var(--agui-mono, ui-monospace, Menlo, Consolas, monospace); }
[data-state="streaming"] [part~="args"]::after { content: "\\258D"; color: var(--agui-accent, #3b5bdb); }
[part~="facts"] { display: flex; gap: 18px; margin: 0; font-size: 12px; }
[part~="fact"] { display: flex; gap: 5px; }
dt { color: var(--agui-muted, #6b7285); }
dd { margin: 0; font-weight: 600; }
[data-value="valid"] dd, [data-value="approved"] dd { color: var(--agui-ok, #2b8a3e); }
[data-value="invalid"] dd, [data-value="declined"] dd { color: var(--agui-bad, #c92a2a); }
[part~="error"] { margin-top: 8px; font-size: 13px; color: var(--agui-bad, #c92a2a); overflow-wrap: anywhere; }
[part~="result"] { margin-top: 8px; font-size: 12px; display: flex; flex-direction: column; gap: 2px; }
[part~="result"] span { color: var(--agui-ok, #2b8a3e); font-weight: 600; }
[part~="result"][data-error] span { color: var(--agui-bad, #c92a2a); }
[part~="result"] code { color: var(--agui-muted, #6b7285); overflow-wrap: anywhere; }
[part~="actions"] { display: flex; gap: 8px; margin-top: 10px; }
[part~="answer-input"] { flex: 1; font: inherit; padding: 6px 10px; border: 1px solid var(--agui-line, #e2e5ec); border-radius: 8px; }
button { font: inherit; font-weight: 600; border: 0; border-radius: 8px; padding: 7px 16px; cursor: pointer; color: #fff; background: var(--agui-accent, #3b5bdb); }
button:focus-visible, input:focus-visible { outline: 2px solid var(--agui-focus, #5c7cfa); outline-offset: 2px; }
[part~="approve"] { background: var(--agui-ok, #2b8a3e); }
[part~="always"] { background: var(--agui-panel, #fff); color: var(--agui-ok, #2b8a3e); box-shadow: inset 0 0 0 1px var(--agui-ok, #2b8a3e); }
[part~="revoke"] { padding: 4px 10px; background: var(--agui-panel, #fff); color: var(--agui-accent, #3b5bdb); box-shadow: inset 0 0 0 1px var(--agui-accent, #3b5bdb); }
[part~="decline"], [part~="reject"] { background: var(--agui-panel, #fff); color: var(--agui-bad, #c92a2a); box-shadow: inset 0 0 0 1px var(--agui-bad, #c92a2a); }
`;

let sheet = null;

/**
 * Gives `root` the stylesheet: one constructed sheet, adopted by every
 * shadow root (no inline style, so no 'unsafe-inline' under a CSP). A
 * browser without constructable stylesheets gets a `<style>` element, which
 * a CSP without 'unsafe-inline' in `style-src` blocks.
 */
function adoptStyles(root) {
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = css;
    root.append(style);
  }
}

/**
 * An element: attributes set with `setAttribute` (never parsed as markup),
 * children appended as nodes or text nodes; `null`, `undefined` and `false`
 * are left out.
 */
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value != null && value !== false) element.setAttribute(name, value);
  }
  element.append(...children.flat().filter((c) => c != null && c !== false));
  return element;
}

/**
 * Where the call is in its life, which picks its renderer; `interrupt` is
 * the open interrupt asking its approval (rule I3), if any.
 */
function stateOf(call, interrupt) {
  if (call.status === "open") return "streaming";
  if (call.status === "abandoned") return "abandoned";
  if (call.consent === "declined") return "declined";
  if (call.result) return "answered";
  if (call.awaitingInterrupt !== undefined) return interrupt?.status === "open" ? "awaitingInterrupt" : "approved";
  if (call.pending) return call.consent === "approved" ? "awaitingAnswer" : "awaitingConsent";
  return "complete";
}

/** The badge of each state: what a user reads. */
const badges = {
  streaming: "streaming",
  abandoned: "abandoned",
  declined: "declined",
  answered: "answered",
  awaitingConsent: "awaiting approval",
  awaitingAnswer: "awaiting answer",
  awaitingInterrupt: "awaiting approval",
  approved: "approved",
  complete: "complete",
};

/** The badge of an interrupt with no call of its own, by status. */
const interruptBadges = { open: "awaiting answer", resolved: "resolved", cancelled: "cancelled" };

/** Dispatches `agui-<action>` from `host`: bubbling, and out of shadow roots. */
function dispatch(host, action, call, extra) {
  send(host, action, { callId: call.id, toolName: call.name, ...extra });
}

function send(host, action, detail) {
  host.dispatchEvent(new CustomEvent(`agui-${action}`, { detail, bubbles: true, composed: true }));
}

/** What an interrupt's events carry: its id and reason, and its call's id and tool when it asks a call's approval. */
function interruptDetail(state, call) {
  const { id, reason } = state.interrupt;
  return call ? { interruptId: id, reason, callId: call.id, toolName: call.name } : { interruptId: id, reason };
}

/**
 * Every part of a card, which <agui-tool-calls> exports from its items;
 * the card also has its state as a part (`::part(card awaitingConsent)`).
 */
const parts = `card, header, tool, badge, args, facts, fact, error, result, actions, button, approve, always, decline, answer, answer-input, prompt, reject, ${Object.keys(badges).join(", ")}`;

/** "the deploy call c1": how labels name a call for a screen reader. */
const named = (call) => `${call.name} call ${call.id}`;

/**
 * Approve, Always allow and Decline: real buttons, each labelled with the
 * tool and call. Always allow is `agui-approve` with `detail.remember:
 * "tool"`, what `tracker.approve(id, { remember })` takes: a listener that
 * ignores it still approves this call.
 */
function consentActions(call, host) {
  const button = (action, text, part = action, extra = undefined) => {
    const b = h("button", { type: "button", part: `button ${part}`, "aria-label": `${text} ${named(call)}` }, text);
    b.addEventListener("click", () => dispatch(host, action, call, extra));
    return b;
  };
  return h(
    "div",
    { part: "actions" },
    button("approve", "Approve"),
    button("approve", "Always allow", "always", { remember: "tool" }),
    button("decline", "Decline"),
  );
}

/** A text answer for an approved call: `agui-answer` with `detail.content`. */
function answerForm(call, host) {
  const input = h("input", { type: "text", part: "answer-input", "aria-label": `Answer to ${named(call)}` });
  const form = h(
    "form",
    { part: "actions" },
    input,
    h("button", { type: "submit", part: "button answer", "aria-label": `Send answer to ${named(call)}` }, "Answer"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    dispatch(host, "answer", call, { content: input.value });
  });
  return form;
}

/**
 * The interrupt's prompt, then, while it is open, Approve and Reject:
 * `agui-interrupt-approve` and `agui-interrupt-reject`. `label` names what
 * is approved for a screen reader (the call, or the interrupt).
 */
function interruptActions(state, host, call, label) {
  const button = (action, text) => {
    const b = h("button", { type: "button", part: `button ${action}`, "aria-label": `${text} ${label}` }, text);
    b.addEventListener("click", () => send(host, `interrupt-${action}`, interruptDetail(state, call)));
    return b;
  };
  return [
    state.interrupt.message !== undefined && h("p", { part: "prompt" }, state.interrupt.message),
    state.status === "open" && h("div", { part: "actions" }, button("approve", "Approve"), button("reject", "Reject")),
  ];
}

/**
 * What each state shows below the call's common parts: the renderer per
 * state. Each gets the call, the element that dispatches its events, and
 * the interrupt the call awaits (if any).
 */
const renderers = {
  streaming: () => null,
  abandoned: () => null,
  declined: () => null,
  answered: () => null,
  complete: () => null,
  awaitingConsent: consentActions,
  awaitingAnswer: answerForm,
  awaitingInterrupt: (call, host, interrupt) => interruptActions(interrupt, host, call, named(call)),
  // Its prompt stays: what the user approved.
  approved: (call, host, interrupt) => interrupt && interruptActions(interrupt, host, call, named(call)),
};

/** The arguments as text: the best-effort value while open, the parsed value once complete, else the raw text. */
function argumentsText(call) {
  const value = call.status === "open" ? call.partialArgs : call.args;
  return value === undefined ? call.argsText : JSON.stringify(value, null, 2);
}

function fact(label, value) {
  return h("div", { part: "fact", "data-value": value }, h("dt", null, label), h("dd", null, value));
}

function resultOf(result) {
  const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
  const label = result.error ? `answered with an error (${result.error})` : `answered (${result.source})`;
  return h("div", { part: "result", "data-error": result.error ? "" : null }, h("span", null, label), h("code", null, text));
}

/** The card of one call: its tool, arguments, verdicts and result, then what its state adds. */
function card(call, host, interrupt) {
  const state = stateOf(call, interrupt);
  return h(
    "article",
    { part: `card ${state}`, "data-state": state, "aria-label": `Tool call ${named(call)}`, tabindex: "-1" },
    h("header", { part: "header" }, h("span", { part: "tool" }, call.name), h("span", { part: "badge" }, badges[state])),
    h("pre", { part: "args", "aria-label": `Arguments of ${named(call)}`, "aria-busy": state === "streaming" ? "true" : null }, argumentsText(call)),
    h(
      "dl",
      { part: "facts" },
      fact("validation", call.validation),
      fact("consent", call.consent),
      // Approved by a standing approval: the call the user gave it on.
      call.consentFrom !== undefined && fact("always allowed on", call.consentFrom),
    ),
    call.argsError && h("div", { part: "error", role: "alert" }, `${call.argsError.kind} error: ${call.argsError.message}`),
    call.result && resultOf(call.result),
    renderers[state](call, host, interrupt),
  );
}

/** The card of an interrupt that asks no call's approval: its reason, status, prompt and, while open, Approve and Reject. */
function interruptCard(state, host) {
  const { id, reason } = state.interrupt;
  const label = `interrupt ${id}`;
  return h(
    "article",
    { part: `card interrupt ${state.status}`, "data-state": state.status, "aria-label": `Interrupt ${id}: ${reason}`, tabindex: "-1" },
    h("header", { part: "header" }, h("span", { part: "tool" }, reason), h("span", { part: "badge" }, interruptBadges[state.status])),
    interruptActions(state, host, undefined, label),
  );
}

/** The interrupt `call` awaits, in `snapshot` (one look: interrupts are few). */
const interruptOf = (snapshot, call) =>
  call?.awaitingInterrupt === undefined ? undefined : snapshot.interrupts.find((i) => i.interrupt.id === call.awaitingInterrupt);

/**
 * Takes over a property set on the element before its class was defined
 * (a framework may set `tracker` on an element not yet upgraded).
 */
function upgradeProperty(element, name) {
  if (Object.hasOwn(element, name)) {
    const value = element[name];
    delete element[name];
    element[name] = value;
  }
}

/**
 * A tracker's store, listened to while the element is connected and has a
 * tracker: the subscription the elements share.
 */
class Subscribed extends Base {
  #tracker = null;
  #unsubscribe = null;

  get tracker() {
    return this.#tracker;
  }
  set tracker(tracker) {
    if (tracker === this.#tracker) return;
    this.#tracker = tracker ?? null;
    this.resubscribe();
  }

  connectedCallback() {
    this.resubscribe();
  }
  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /**
   * Shows `snapshot` (`undefined`: no tracker, or not in a document); each
   * element draws its own way.
   * @param {import("./index.js").Snapshot | undefined} snapshot
   */
  draw(snapshot) {}

  /** Subscribes anew (or lets go) for the current tracker, then draws. */
  resubscribe() {
    this.disconnectedCallback();
    if (!this.isConnected || !this.#tracker) return this.draw(undefined);
    const store = storeOf(this.#tracker);
    this.#unsubscribe = store.subscribe(() => this.draw(store.getSnapshot()));
    this.draw(store.getSnapshot());
  }
}

/** An element about one call, named by its `call-id` attribute. */
class OneCall extends Subscribed {
  /** The id of the call (the `call-id` attribute). */
  get callId() {
    return this.getAttribute("call-id");
  }
  set callId(id) {
    if (id == null) this.removeAttribute("call-id");
    else this.setAttribute("call-id", id);
  }
}

/**
 * `<agui-tool-call call-id="c1">`: one call, with `el.tracker = tracker`.
 * Nothing shows until the call starts; the element redraws only when its
 * call changes, at most once per animation frame.
 *
 * @example
 * const el = document.createElement("agui-tool-call");
 * el.callId = "c1";
 * el.tracker = tracker;
 * document.body.append(el);
 */
export class AguiToolCallElement extends OneCall {
  static observedAttributes = ["call-id"];
  #root;
  #call = undefined;
  #interrupt = undefined;
  #last = { index: -1 };

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: "open" });
    adoptStyles(this.#root);
    upgradeProperty(this, "tracker");
    upgradeProperty(this, "callId");
  }

  /** The call as last drawn (`undefined` until it starts). */
  get call() {
    return this.#call;
  }

  attributeChangedCallback() {
    this.#last.index = -1;
    this.resubscribe();
  }

  /** Draws the call of `snapshot` (and the interrupt it awaits), if either is not the object already drawn. */
  draw(snapshot) {
    const id = this.callId;
    const call = snapshot && id !== null ? findCall(snapshot.calls, id, this.#last) : undefined;
    const interrupt = snapshot && interruptOf(snapshot, call);
    if (call === this.#call && interrupt === this.#interrupt) return;
    this.#call = call;
    this.#interrupt = interrupt;
    // A keyboard user who just pressed a button of the card keeps their
    // place: the focus goes to the new card's first control, or the card.
    const hadFocus = this.#root.activeElement !== null;
    const shown = call ? [card(call, this, interrupt)] : [];
    this.#root.replaceChildren(...shown);
    if (hadFocus && call) (this.#root.querySelector("input, button") ?? shown[0]).focus();
  }
}

/**
 * `<agui-tool-calls>`: every call of `el.tracker`, in first-start order,
 * each an `<agui-tool-call>` in its shadow root, then the thread's
 * interrupts that ask no call's approval (an interrupt asking a call's
 * approval shows on that call's card), then the standing approvals, each
 * with Ask again (`agui-revoke-approval`). Events from the cards reach the
 * page through it.
 *
 * Nested (the default; the `flat` attribute lists every call in one
 * list): right after a call come the subagents it started
 * (`parentToolCallId`), each a `role="group"` element (`part="subagent"`)
 * labelled with its name, holding that subagent's calls, nested the same
 * way. Every call is shown, pending ones of nested subagents included.
 *
 * @example
 * const list = document.createElement("agui-tool-calls");
 * list.tracker = tracker;
 * list.addEventListener("agui-decline", (e) => tracker.decline(e.detail.callId));
 * document.body.append(list);
 */
export class AguiToolCallsElement extends Subscribed {
  static observedAttributes = ["flat"];
  #list;
  #interrupts;
  #standing;
  /** What the calls were last laid out from: redrawn only when a call or subagent comes or changes. */
  #laidOut = { calls: -1, subagents: null, flat: false };
  #shownInterrupts = null;
  #shownStanding = null;
  /** The element of each call and of each subagent's group, kept across draws. */
  #items = new Map();
  #groups = new Map();

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    adoptStyles(root);
    this.#list = h("div", { part: "list", class: "list", role: "list" });
    this.#interrupts = h("div", { part: "interrupts", class: "interrupts", role: "list" });
    this.#standing = h("div", { part: "standing", role: "list", "aria-label": "Always allowed" });
    root.append(this.#list, this.#interrupts, this.#standing);
    upgradeProperty(this, "tracker");
    upgradeProperty(this, "flat");
  }

  /** Every call in one list, no subagent groups (the `flat` attribute). */
  get flat() {
    return this.hasAttribute("flat");
  }
  set flat(flat) {
    this.toggleAttribute("flat", Boolean(flat));
  }

  attributeChangedCallback() {
    this.resubscribe();
  }

  draw(snapshot) {
    this.#drawCalls(snapshot);
    this.#drawInterrupts(snapshot);
    this.#drawStanding(snapshot);
  }

  /** The interrupts that ask no call's approval, redrawn when the interrupts change. */
  #drawInterrupts(snapshot) {
    const interrupts = snapshot?.interrupts ?? [];
    if (interrupts === this.#shownInterrupts) return;
    this.#shownInterrupts = interrupts;
    const hadFocus = this.shadowRoot.activeElement !== null && this.#interrupts.contains(this.shadowRoot.activeElement);
    const own = (i) => i.interrupt.toolCallId === undefined || !snapshot.calls.some((c) => c.id === i.interrupt.toolCallId);
    const cards = interrupts.filter(own).map((state) => {
      const item = interruptCard(state, this);
      item.setAttribute("role", "listitem");
      return item;
    });
    this.#interrupts.replaceChildren(...cards);
    if (hadFocus) (this.#interrupts.querySelector("button") ?? cards[0])?.focus();
  }

  /** The standing approvals, each with Ask again, redrawn when they change. */
  #drawStanding(snapshot) {
    const standing = snapshot?.standingApprovals ?? [];
    if (standing === this.#shownStanding) return;
    this.#shownStanding = standing;
    const rows = standing.map(({ tool, toolCallId }) => {
      const revoke = h("button", { type: "button", part: "button revoke", "aria-label": `Ask again before ${tool}` }, "Ask again");
      revoke.addEventListener("click", () => send(this, "revoke-approval", { tool, toolCallId }));
      return h("div", { part: "standing-approval", role: "listitem" }, h("span", null, `Always allowed: ${tool} (from ${toolCallId})`), revoke);
    });
    this.#standing.replaceChildren(...rows);
  }

  /**
   * Lays the calls out, in order, nested under the calls that started
   * their subagents unless `flat`: elements are kept and only moved where
   * the order differs, so a new call at the end adds one element.
   */
  #drawCalls(snapshot) {
    const calls = snapshot?.calls ?? [];
    const subagents = snapshot?.subagents ?? [];
    const flat = this.flat || subagents.length === 0;
    const last = this.#laidOut;
    if (calls.length === last.calls && subagents === last.subagents && flat === last.flat) return;
    this.#laidOut = { calls: calls.length, subagents, flat };
    if (flat) return place(this.#list, calls.map((call) => this.#item(call.id)));
    const nodes = (list) => list.flatMap((n) => (n.kind === "call" ? [this.#item(n.call.id), ...nodes(n.subagents)] : [this.#group(n, nodes)]));
    place(this.#list, nodes(callTree(snapshot, [])));
  }

  #item(id) {
    let item = this.#items.get(id);
    if (item) return item;
    item = /** @type {AguiToolCallElement} */ (document.createElement("agui-tool-call"));
    item.setAttribute("role", "listitem");
    // `calls::part(card)` reaches the cards, one shadow root deeper.
    item.setAttribute("exportparts", parts);
    item.callId = id;
    item.tracker = this.tracker;
    this.#items.set(id, item);
    return item;
  }

  /** The group of one subagent, its attributes brought up to date and its calls laid out in it. */
  #group(node, nodes) {
    const { subagent } = node;
    let group = this.#groups.get(subagent.subagentRunId);
    if (!group) this.#groups.set(subagent.subagentRunId, (group = h("div", { part: "subagent", role: "group" })));
    group.setAttribute("aria-label", subagent.name);
    group.setAttribute("data-subagent-run-id", subagent.subagentRunId);
    group.setAttribute("data-status", subagent.status);
    place(group, nodes(node.children));
    return group;
  }

  /** A new tracker: the old tracker's calls, interrupts and standing approvals go. */
  resubscribe() {
    this.#laidOut = { calls: -1, subagents: null, flat: false };
    this.#shownInterrupts = null;
    this.#shownStanding = null;
    this.#items?.clear();
    this.#groups?.clear();
    this.#list?.replaceChildren();
    this.#interrupts?.replaceChildren();
    this.#standing?.replaceChildren();
    super.resubscribe();
  }
}

/** Makes `children` the children of `container`, moving only the ones out of place. */
function place(container, children) {
  children.forEach((child, i) => {
    const at = container.children[i];
    if (at !== child) container.insertBefore(child, at ?? null);
  });
  while (container.children.length > children.length) container.lastElementChild.remove();
}

/**
 * `<agui-tool-arg call-id="c1" field="url">`: one top-level field of a
 * call's arguments, as text (a string as it is, another value as JSON),
 * with `el.tracker = tracker`. It redraws only when the field's value or
 * completeness changes, so a complete field is not redrawn while other
 * fields stream; the host has the `complete` attribute once the field is
 * complete (its value never changes again), and dispatches
 * `agui-arg-complete` (`detail.callId`, `field`, `value`) then.
 *
 * @example
 * const url = document.createElement("agui-tool-arg");
 * url.callId = "c1";
 * url.field = "url";
 * url.tracker = tracker;
 * url.addEventListener("agui-arg-complete", (e) => prefetch(e.detail.value));
 */
export class AguiToolArgElement extends OneCall {
  static observedAttributes = ["call-id", "field"];
  #root;
  #read = argFieldReader();
  #reading = undefined;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: "open" });
    adoptStyles(this.#root);
    upgradeProperty(this, "tracker");
    upgradeProperty(this, "callId");
    upgradeProperty(this, "field");
  }

  /** The top-level field shown (the `field` attribute). */
  get field() {
    return this.getAttribute("field");
  }
  set field(name) {
    if (name == null) this.removeAttribute("field");
    else this.setAttribute("field", name);
  }

  /** The field's value as last drawn (`undefined` until it starts). */
  get value() {
    return this.#reading?.value;
  }

  /** Whether the field is complete, as last drawn. */
  get complete() {
    return this.#reading?.complete ?? false;
  }

  attributeChangedCallback() {
    this.resubscribe();
  }

  /** Draws the field of `snapshot`, if it is not the reading already drawn. */
  draw(snapshot) {
    const { callId, field } = this;
    const reading = snapshot && callId !== null && field !== null ? this.#read(snapshot, callId, field) : undefined;
    if (reading === this.#reading) return;
    const completes = reading?.complete === true && this.#reading?.complete !== true;
    this.#reading = reading;
    const value = reading?.value;
    const text = value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
    this.#root.replaceChildren(h("span", { part: "value" }, text));
    this.toggleAttribute("complete", completes || reading?.complete === true);
    if (completes) send(this, "arg-complete", { callId, field, value });
  }
}

if (globalThis.customElements) {
  if (!customElements.get("agui-tool-call")) customElements.define("agui-tool-call", AguiToolCallElement);
  if (!customElements.get("agui-tool-calls")) customElements.define("agui-tool-calls", AguiToolCallsElement);
  if (!customElements.get("agui-tool-arg")) customElements.define("agui-tool-arg", AguiToolArgElement);
}

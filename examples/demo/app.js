// The chat view, in React without JSX (plain createElement, so Vite needs no
// plugin). The tracker's snapshots drive the tool-call cards; unchanged calls
// keep their identical objects, so each memoised card re-renders only when its
// own call changes.
import { createElement as h, memo, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { useStandingApprovals, useToolCalls } from "agui-tool-calls/react";

export function App({ session }) {
  const chat = useSyncExternalStore(session.subscribe, session.getState);
  const snapshot = useToolCalls(session.tracker);
  return h(
    "div",
    { className: "app" },
    h(Header, { run: snapshot.run, busy: chat.busy, pending: snapshot.pendingCalls.length }),
    h(Timeline, { messages: chat.messages, calls: snapshot.calls, subagents: snapshot.subagents, session }),
    h(Standing, { session }),
    h(Problems, { violations: snapshot.violations, fatal: snapshot.fatal, error: chat.error }),
    h(Composer, { session, busy: chat.busy }),
  );
}

function Header({ run, busy, pending }) {
  const status = busy && run.status !== "running" ? "connecting" : run.status;
  return h(
    "header",
    { className: "top" },
    h("div", null, h("h1", null, "Deploy assistant"), h("p", { className: "sub" }, "AG-UI tool calls, tracked by agui-tool-calls")),
    h(
      "div",
      { className: "run" },
      pending > 0 && h("span", { className: "pill pill-pending" }, `${pending} awaiting you`),
      h("span", { className: `pill pill-${status}`, "data-run-status": status }, `run ${status}`),
    ),
  );
}

function Timeline({ messages, calls, subagents, session }) {
  const ref = useRef(null);
  // Follow the conversation as it streams.
  useLayoutEffect(() => {
    ref.current.scrollTop = ref.current.scrollHeight;
  });
  const byParent = Map.groupBy(calls, (c) => c.parentMessageId);
  const ids = new Set(messages.map((m) => m.id));
  // The subagent tree: which subagent a call belongs to, and which one it started.
  const owner = new Map(subagents.map((s) => [s.subagentRunId, s]));
  const started = new Map(subagents.map((s) => [s.parentToolCallId, s]));
  const card = (call) => h(ToolCallCard, { key: call.id, call, session, owner: owner.get(call.subagentRunId), started: started.get(call.id) });
  const items = [];
  for (const m of messages) {
    items.push(h(Message, { key: m.id, message: m }));
    for (const call of byParent.get(m.id) ?? []) items.push(card(call));
  }
  for (const call of calls) if (!ids.has(call.parentMessageId)) items.push(card(call));
  if (items.length === 0) {
    items.push(
      h(
        "p",
        { key: "empty", className: "empty" },
        "Ask the agent to deploy. It asks for your confirmation through the frontend tool ",
        h("code", null, "confirm_deploy"),
        ": watch its arguments stream in, then approve or decline.",
      ),
    );
  }
  return h("main", { ref, className: "timeline", "aria-live": "polite" }, items);
}

const Message = memo(function Message({ message }) {
  const className = `msg msg-${message.role}${message.streaming ? " streaming" : ""}`;
  return h("div", { className, "data-message-id": message.id }, h("p", null, message.text));
});

/** The card's badge: where the call is in its life. */
function badgeOf(call) {
  if (call.status === "open") return "streaming";
  if (call.status === "abandoned") return "abandoned";
  if (call.pending) return "pending";
  if (call.consent === "declined") return "declined";
  if (call.result) return "answered";
  return "complete";
}

/** The arguments as indented JSON text: the best-effort value while open, the parsed value once complete. */
function argumentsText(call) {
  const value = call.status === "open" ? call.partialArgs : call.args;
  return value === undefined ? call.argsText : JSON.stringify(value, null, 2);
}

const ToolCallCard = memo(function ToolCallCard({ call, session, owner, started }) {
  const badge = badgeOf(call);
  return h(
    "article",
    { className: `card card-${badge}${owner ? " nested" : ""}`, "data-call-id": call.id, "data-status": badge, "data-subagent-run-id": call.subagentRunId },
    h(
      "header",
      null,
      h("span", { className: "tool" }, h("span", { className: "tool-icon", "aria-hidden": true }, "ƒ"), call.name),
      h("span", { className: `badge badge-${badge}` }, badge),
    ),
    // Text, never markup: the arguments come from the model.
    h("pre", { className: `args${call.status === "open" ? " live" : ""}` }, argumentsText(call)),
    h(
      "dl",
      { className: "facts" },
      h(Fact, { label: "validation", value: call.validation }),
      h(Fact, { label: "consent", value: call.consent }),
      call.consentFrom && h(Fact, { label: "approved by", value: "standing", title: `the standing approval given on ${call.consentFrom}` }),
      call.advertised && h(Fact, { label: "tool", value: "frontend" }),
      owner && h(Fact, { label: "subagent", value: owner.name }),
      started && h(Fact, { label: "started", value: `${started.name} (${started.status})` }),
    ),
    call.argsError && h(ArgsErrors, { error: call.argsError }),
    call.result && h(Result, { result: call.result }),
    call.pending &&
      h(
        "div",
        { className: "actions" },
        h("button", { className: "approve", onClick: () => session.approve(call) }, "Approve"),
        h("button", { className: "approve-always", onClick: () => session.approve(call, true) }, "Always allow"),
        h("button", { className: "decline", onClick: () => session.decline(call) }, "Decline"),
      ),
  );
});

function Fact({ label, value, title }) {
  return h("div", { className: `fact fact-${value}`, title }, h("dt", null, label), h("dd", null, value));
}

/** The standing approvals the user gave, each withdrawable. */
function Standing({ session }) {
  const standing = useStandingApprovals(session.tracker);
  if (standing.length === 0) return null;
  return h(
    "section",
    { className: "standing" },
    standing.map((s) =>
      h(
        "p",
        { key: s.tool, "data-tool": s.tool },
        "Always allowed: ",
        h("code", null, s.tool),
        h("button", { className: "revoke", onClick: () => session.revoke(s.tool) }, "Ask again"),
      ),
    ),
  );
}

function ArgsErrors({ error }) {
  const errors = error.errors ?? [];
  return h(
    "div",
    { className: "args-error" },
    h("strong", null, `${error.kind} error: `),
    errors.length === 0 && error.message,
    errors.length > 0 &&
      h(
        "ul",
        null,
        errors.map((e, i) => h("li", { key: i }, h("code", null, e.path || "/"), " ", h("em", null, e.keyword), ": ", e.message)),
      ),
  );
}

function Result({ result }) {
  const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
  return h(
    "div",
    { className: `result${result.error ? " result-error" : ""}` },
    h("span", { className: "result-label" }, result.error ? `answered with an error (${result.error})` : `answered (${result.source})`),
    h("code", null, text),
  );
}

function Problems({ violations, fatal, error }) {
  if (!error && !fatal && violations.length === 0) return null;
  return h(
    "section",
    { className: "problems" },
    error && h("p", { className: "error", role: "alert" }, error),
    fatal && h("p", { className: "error fatal" }, `Fatal ${fatal.code}: ${fatal.message}`),
    violations.length > 0 &&
      h(
        "ul",
        { className: "violations" },
        violations.map((v, i) => h("li", { key: i, className: `sev-${v.severity}` }, h("code", null, v.code), ` ${v.severity}: ${v.message}`)),
      ),
  );
}

function Composer({ session, busy }) {
  const [draft, setDraft] = useState("Please deploy checkout-api v2.14.0 to production.");
  const submit = (event) => {
    event.preventDefault();
    const text = draft.trim();
    if (text && session.send(text)) setDraft("");
  };
  return h(
    "form",
    { className: "composer", onSubmit: submit },
    h("input", { value: draft, onChange: (e) => setDraft(e.target.value), placeholder: "Message the agent", "aria-label": "Message" }),
    h("button", { type: "submit", disabled: busy || draft.trim() === "" }, busy ? "Streaming…" : "Send"),
  );
}

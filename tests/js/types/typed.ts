// Checked by `tsc --noEmit --strict` (tests/js/types.test.mjs): arguments
// typed from `as const` tool schemas, and the unions that narrow.
import { ToolCallTracker, type FromSchema, type PartialValue, type Snapshot, type ToolCallState } from "agui-tool-calls";

// The example of the issue, verbatim.
const tools = [
  { name: "confirm_deploy", description: "Deploy", parameters: { type: "object", properties: { service: { type: "string" }, replicas: { type: "integer" } }, required: ["service"] } },
  { name: "pick_color", description: "Color", parameters: { type: "object", properties: { hint: { type: "string", enum: ["warm", "cool"] } } } },
] as const;
const t = new ToolCallTracker({ tools });
for (const c of t.snapshot().completedCalls) {
  if (c.advertised && c.name === "confirm_deploy" && c.validation === "valid") {
    const service: string = c.args.service;
    const replicas: number | undefined = c.args.replicas;
    // @ts-expect-error not an argument of confirm_deploy
    c.args.color;
    void [service, replicas];
  }
  if (c.validation === "invalid") { const kind: "parse" | "schema" | "limit" = c.argsError.kind; void kind; }
  if (!c.advertised) { const name: string = c.name; const a: unknown = c.args; void [name, a]; }
}
for (const c of t.snapshot().openCalls) {
  if (c.advertised && c.name === "confirm_deploy") { const p: string | undefined = c.partialArgs?.service; void p; }
}

// More of what the types must refuse or allow.
for (const c of t.snapshot().calls) {
  if (c.advertised && c.name === "pick_color" && c.validation === "valid") {
    const hint: "warm" | "cool" | undefined = c.args.hint;
    // @ts-expect-error an enum member, not any string
    const wrong: "hot" | undefined = c.args.hint;
    // @ts-expect-error frozen: read-only
    c.args.hint = "warm";
    void [hint, wrong];
  }
  if (c.advertised && c.name === "confirm_deploy") {
    // @ts-expect-error args are typed only once validated
    const early: string = c.args.service;
    // @ts-expect-error the name narrows: pick_color's arguments are not there
    const hint = c.validation === "valid" ? c.args.hint : undefined;
    void [early, hint];
  }
  if (c.status === "open") {
    // @ts-expect-error no args while open
    const a: object = c.args;
    void a;
  }
  // @ts-expect-error argsError may be missing unless invalid
  const kind: string = c.argsError.kind;
  // @ts-expect-error no such tool
  if (c.advertised && c.name === "delete_everything") void c;
  void kind;
}
for (const c of t.snapshot().openCalls) {
  if (c.advertised && c.name === "pick_color") {
    // A partial enum member is any prefix: a string.
    const p: string | undefined = c.partialArgs?.hint;
    // @ts-expect-error partial values are not the enum yet
    const q: "warm" | "cool" | undefined = c.partialArgs?.hint;
    void [p, q];
  }
}

// The run narrows on its status.
const run = t.snapshot().run;
if (run.status === "errored") { const message: string = run.error; void message; }
if (run.status === "interrupted") { const interrupts: readonly unknown[] = run.outcome.interrupts; void interrupts; }
if (run.status === "running") { const id: string = run.runId; void id; }
if (run.status === "finished") {
  const type: "success" | undefined = run.outcome?.type;
  // @ts-expect-error no error on a finished run
  const message: string = run.error;
  void [type, message];
}
// @ts-expect-error error is defined only once errored
const notYet: string = run.error;
void notYet;

// startRun with typed tools takes those tools only.
t.startRun({ threadId: "t", runId: "r", messages: [], tools: [tools[0]] });
// @ts-expect-error a tool the types do not know
t.startRun({ threadId: "t", runId: "r", messages: [], tools: [{ name: "other", parameters: {} }] });

// Schema forms.
type Check<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const ok = <T extends true>(): T | void => undefined;
ok<Check<FromSchema<{ type: "number" }>, number>>();
ok<Check<FromSchema<{ type: "null" }>, null>>();
ok<Check<FromSchema<{ type: readonly ["string", "null"] }>, string | null>>();
ok<Check<FromSchema<{ const: 3 }>, 3>>();
ok<Check<FromSchema<{ type: "array"; items: { type: "boolean" } }>, readonly boolean[]>>();
ok<Check<FromSchema<{ anyOf: readonly [{ type: "string" }, { type: "integer" }] }>, string | number>>();
ok<Check<FromSchema<{ oneOf: readonly [{ const: "a" }, { const: "b" }] }>, "a" | "b">>();
ok<Check<FromSchema<{ type: "object" }>, { readonly [key: string]: unknown }>>();
ok<Check<FromSchema<{ not: {} }>, unknown>>();
ok<Check<FromSchema<{ type: "object"; properties: { a: { type: "object"; properties: { b: { type: "string" } }; required: readonly ["b"] } }; required: readonly ["a"] }>, { readonly a: { readonly b: string } }>>();
ok<Check<PartialValue<{ readonly a: readonly { readonly b: "x" | "y"; readonly n: number }[] }>, { readonly a?: readonly { readonly b?: string; readonly n?: number }[] }>>();
// @ts-expect-error a number is not a string
ok<Check<FromSchema<{ type: "number" }>, string>>();

// Inline tools type the calls too (a const type parameter): no `as const` needed.
const inline = new ToolCallTracker({ tools: [{ name: "search", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } }] });
for (const c of inline.snapshot().completedCalls) {
  if (c.advertised && c.validation === "valid") { const q: string = c.args.q; void q; }
}

// Without const tools, everything is `unknown` and still narrows.
const loose: { name: string; parameters?: unknown }[] = [];
const u = new ToolCallTracker({ tools: loose });
const s: Snapshot = u.snapshot();
for (const c of s.calls) {
  const a: unknown = c.args;
  // @ts-expect-error unknown arguments have no known properties
  c.args.service;
  if (c.validation === "invalid") { const m: string = c.argsError.message; void m; }
  if (c.status === "open") { const p: unknown = c.partialArgs; void p; }
  const same: ToolCallState = c;
  void [a, same];
}
const plain = new ToolCallTracker();
const first = plain.snapshot().calls[0];
if (first?.validation === "valid") { const a: unknown = first.args; void a; }

// Copies: toJSON is a plain object with the same discriminants.
for (const c of t.snapshot().completedCalls) {
  const copy = c.toJSON();
  if (copy.advertised && copy.name === "confirm_deploy" && copy.validation === "valid") { const service: string = copy.args.service; void service; }
  const cloned = structuredClone(c.toJSON());
  const text: string = cloned.argsText;
  const spread = { ...c };
  const id: string = spread.id;
  void [text, id];
}

// A tool without parameters: its arguments are `unknown`, even once valid.
const bare = new ToolCallTracker({ tools: [{ name: "ping" }, { name: "echo", parameters: { type: "string" } }] as const });
for (const c of bare.snapshot().completedCalls) {
  if (c.advertised && c.name === "ping" && c.validation === "valid") {
    const a: unknown = c.args;
    // @ts-expect-error unknown, not any
    c.args.anything;
    void a;
  }
  if (c.advertised && c.name === "echo" && c.validation === "valid") { const s: string = c.args; void s; }
}

// RUN_FINISHED.result, opaque, once the run finished.
const r = t.snapshot().run;
if (r.status === "finished") { const result: unknown = r.result; void result; }
if (r.status === "running") { const none: undefined = r.result; void none; }

// Checked by `tsc --noEmit --strict`: the Svelte binding with typed tools.
import { createRawSnippet, mount, type ComponentInternals, type Snippet } from "svelte";
import { fromStore, get } from "svelte/store";
import { ToolCallTracker } from "agui-tool-calls";
import {
  ToolCalls,
  interruptsStore,
  pendingCallsStore,
  toolCallStore,
  toolCallsStore,
  type ToolCallRenderProps,
  type ToolCallsProps,
} from "agui-tool-calls/svelte";

const tools = [
  { name: "confirm_deploy", parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] } },
  { name: "pick_color", parameters: { type: "object", properties: { hint: { enum: ["warm", "cool"] } } } },
] as const;
const tracker = new ToolCallTracker({ tools });

const version: number = get(toolCallsStore(tracker)).version;
const pending: number = get(pendingCallsStore(tracker, { coalesce: false })).length;
const prompt: string | undefined = get(interruptsStore(tracker))[0]?.interrupt.message;
const one = fromStore(toolCallStore(tracker, "c1"));
const call = one.current;
if (call?.advertised && call.name === "pick_color" && call.validation === "valid") {
  const hint: "warm" | "cool" | undefined = call.args.hint;
  void hint;
}
void [version, pending, prompt];

const deploy: Snippet<[ToolCallRenderProps<typeof tools, "confirm_deploy">]> = createRawSnippet((props) => ({
  render: () => {
    const { call } = props();
    // @ts-expect-error confirm_deploy has no hint
    void call.args?.hint;
    return `<p>${call.name}</p>`;
  },
}));

// Markup (`<ToolCalls {tracker} render={{ confirm_deploy: deploy }} />`) is
// checked by svelte-check as a call of the component with its props, which
// infers the tools from `tracker`: the same call, never run.
export function markup(internals: ComponentInternals) {
  ToolCalls(internals, { tracker, render: { confirm_deploy: deploy }, pick_color: createRawSnippet(() => ({ render: () => "<i></i>" })) });
  // @ts-expect-error a confirm_deploy snippet cannot render pick_color calls
  ToolCalls(internals, { tracker, render: { pick_color: deploy } });
  // @ts-expect-error no such tool
  ToolCalls(internals, { tracker, render: { delete_all: deploy } });
}
export const wrong: ToolCallsProps<typeof tools> = { tracker };
// mount() takes the props as declared, without inference: an untyped tracker.
mount(ToolCalls, { target: document.body, props: { tracker: new ToolCallTracker(), coalesce: false } });

// Checked by `tsc --noEmit --strict`: the React binding with typed tools.
import { ToolCallTracker, type Subagent } from "agui-tool-calls";
import {
  ToolCalls,
  useArgField,
  useInterrupts,
  useStandingApprovals,
  useToolArgsStatus,
  useToolCall,
  usePendingCalls,
  useToolCalls,
  type ToolCallRenderProps,
} from "agui-tool-calls/react";

const tools = [
  { name: "confirm_deploy", parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] } },
  { name: "pick_color", parameters: { type: "object", properties: { hint: { enum: ["warm", "cool"] } } } },
] as const;
const tracker = new ToolCallTracker({ tools });

function DeployCard({ call, approve, decline, answer, fail }: ToolCallRenderProps<typeof tools, "confirm_deploy">) {
  const name: "confirm_deploy" = call.name;
  const service: string | undefined =
    call.status === "open" ? call.partialArgs?.service : call.validation === "valid" ? call.args.service : undefined;
  // @ts-expect-error confirm_deploy has no hint
  void call.args?.hint;
  // @ts-expect-error decline takes an optional reason string
  decline(42);
  return (
    <div>
      {name} {service}
      <button onClick={() => (approve(), answer(`deployed ${service}`))}>Approve</button>
      <button onClick={() => approve({ remember: "tool" })}>Always allow</button>
      <button onClick={() => decline("no")}>Decline</button>
      <button onClick={() => fail("broken")}>Fail</button>
    </div>
  );
}

export function App() {
  const snapshot = useToolCalls(tracker);
  const framesOff = useToolCalls(tracker, { coalesce: false });
  const pending = usePendingCalls(tracker);
  const one = useToolCall(tracker, "c1");
  if (one?.advertised && one.name === "pick_color" && one.validation === "valid") {
    const hint: "warm" | "cool" | undefined = one.args.hint;
    void hint;
  }
  const interrupts = useInterrupts(tracker);
  const standingTools: readonly string[] = useStandingApprovals(tracker).map((s) => s.tool);
  void standingTools;
  const firstPrompt: string | undefined = interrupts[0]?.interrupt.message;
  void [snapshot.version, framesOff.version, pending.length, firstPrompt];
  return (
    <ToolCalls
      tracker={tracker}
      render={{
        confirm_deploy: DeployCard,
        pick_color: ({ call }) => <span>{call.status === "complete" && call.validation === "valid" ? call.args.hint : "…"}</span>,
      }}
      fallback={({ call, interrupt, approveWithEdits, reject }) =>
        interrupt ? (
          <div>
            {interrupt.interrupt.message ?? call.name}
            <button onClick={() => approveWithEdits({ amount: 3 })}>Approve</button>
            <button onClick={() => reject()}>Reject</button>
          </div>
        ) : (
          <pre>{call.name}</pre>
        )
      }
    />
  );
}

export function Wrong() {
  return (
    <>
      {/* @ts-expect-error no such tool to render */}
      <ToolCalls tracker={tracker} render={{ delete_all: () => null }} />
      {/* @ts-expect-error a pick_color component cannot render confirm_deploy calls */}
      <ToolCalls tracker={tracker} render={{ confirm_deploy: ({ call }: ToolCallRenderProps<typeof tools, "pick_color">) => call.name }} />
    </>
  );
}

// Untyped trackers work with any tool name.
const loose = new ToolCallTracker();
export const Loose = () => <ToolCalls tracker={loose} render={{ anything: ({ call }) => <i>{String(call.args)}</i> }} />;

// Per-field status, typed by the tools' schemas.
export function ServiceField({ callId }: { callId: string }) {
  const service = useArgField(tracker, callId, "service");
  const value: string | undefined = service.value;
  const complete: boolean = service.complete;
  const hint = useArgField(tracker, callId, "hint");
  const warm: "warm" | "cool" | string | undefined = hint.value;
  // @ts-expect-error no tool has a field "size"
  useArgField(tracker, callId, "size");
  const status = useToolArgsStatus(tracker, callId);
  const serviceStatus: "streaming" | "complete" | undefined = status.service;
  // @ts-expect-error no tool has a field "size"
  void status.size;
  const call = useToolCall(tracker, callId);
  if (call?.advertised && call.name === "confirm_deploy" && call.status === "open") {
    const done: boolean = call.isComplete("service") && call.isComplete(["service"]);
    const fields: "streaming" | "complete" | undefined = call.argsStatus().service;
    // @ts-expect-error confirm_deploy has no field "hint"
    call.isComplete("hint");
    void [done, fields];
  }
  // Loose trackers take any field.
  const anything: unknown = useArgField(loose, callId, "anything").value;
  void [value, complete, warm, serviceStatus, anything];
  return null;
}

// The subagent tree: nested by default, flat on request, with a group component of one's own.
export function Nested() {
  const snapshot = useToolCalls(tracker);
  const s: Subagent | undefined = snapshot.subagents[0];
  const status: "running" | "finished" | "suspended" | "errored" | "abandoned" | undefined = s?.status;
  const calls: readonly string[] | undefined = s?.callIds;
  void [status, calls];
  return (
    <>
      <ToolCalls tracker={tracker} nested={false} fallback={({ call }) => <i>{call.name}</i>} />
      <ToolCalls
        tracker={tracker}
        subagent={({ subagent, children }) => (
          <section aria-label={subagent.name}>
            {subagent.parentToolCallId} {children}
          </section>
        )}
        fallback={({ call }) => <i>{call.name}</i>}
      />
    </>
  );
}

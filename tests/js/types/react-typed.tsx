// Checked by `tsc --noEmit --strict`: the React binding with typed tools.
import { ToolCallTracker } from "agui-tool-calls";
import { ToolCalls, useInterrupts, useStandingApprovals, useToolCall, usePendingCalls, useToolCalls, type ToolCallRenderProps } from "agui-tool-calls/react";

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

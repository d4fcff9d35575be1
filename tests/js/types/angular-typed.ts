// Checked by `tsc --noEmit --strict`: the Angular binding with typed tools.
import { Injector, signal } from "@angular/core";
import { ToolCallTracker } from "agui-tool-calls";
import { interruptsSignal, pendingCallsSignal, toolCallActions, toolCallSignal, toolCallsSignal } from "agui-tool-calls/angular";

const tools = [
  { name: "confirm_deploy", parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] } },
  { name: "pick_color", parameters: { type: "object", properties: { hint: { enum: ["warm", "cool"] } } } },
] as const;
const tracker = new ToolCallTracker({ tools });

export class Calls {
  readonly snapshot = toolCallsSignal(tracker);
  readonly pending = pendingCallsSignal(tracker, { coalesce: false });
  readonly interrupts = interruptsSignal(tracker);
  readonly id = signal("c1");
  readonly call = toolCallSignal(tracker, this.id);
  readonly actions = toolCallActions(tracker, "c1");

  constructor(injector: Injector) {
    const other = toolCallSignal(tracker, "c2", { injector });
    const call = this.call();
    if (call?.advertised && call.name === "pick_color" && call.validation === "valid") {
      const hint: "warm" | "cool" | undefined = call.args.hint;
      void hint;
    }
    const prompt: string | undefined = this.interrupts()[0]?.interrupt.message;
    void [this.snapshot().version, this.pending().length, other()?.id, prompt];
    // @ts-expect-error decline takes an optional reason string
    this.actions.decline(42);
    // @ts-expect-error signals are read-only
    this.snapshot.set(this.snapshot());
  }
}

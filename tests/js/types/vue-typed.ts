// Checked by `tsc --noEmit --strict`: the Vue binding with typed tools.
import { defineComponent, h, ref } from "vue";
import { ToolCallTracker } from "agui-tool-calls";
import { ToolCalls, useInterrupts, usePendingCalls, useToolCall, useToolCalls, type ToolCallRenderProps } from "agui-tool-calls/vue";

const tools = [
  { name: "confirm_deploy", parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] } },
  { name: "pick_color", parameters: { type: "object", properties: { hint: { enum: ["warm", "cool"] } } } },
] as const;
const tracker = new ToolCallTracker({ tools });

export const DeployCard = defineComponent((props: ToolCallRenderProps<typeof tools, "confirm_deploy">) => {
  const { call } = props;
  const name: "confirm_deploy" = call.name;
  const service: string | undefined =
    call.status === "open" ? call.partialArgs?.service : call.validation === "valid" ? call.args.service : undefined;
  // @ts-expect-error confirm_deploy has no hint
  void call.args?.hint;
  // @ts-expect-error decline takes an optional reason string
  props.decline(42);
  return () => h("button", { onClick: () => (props.approve(), props.answer(`deployed ${service}`)) }, name);
});

export const App = defineComponent(() => {
  const snapshot = useToolCalls(tracker);
  const framesOff = useToolCalls(tracker, { coalesce: false });
  const pending = usePendingCalls(tracker);
  const id = ref("c1");
  const one = useToolCall(tracker, id);
  const byGetter = useToolCall(tracker, () => id.value);
  const interrupts = useInterrupts(tracker);
  // @ts-expect-error the refs are read-only
  snapshot.value = framesOff.value;
  return () => {
    const call = one.value;
    if (call?.advertised && call.name === "pick_color" && call.validation === "valid") {
      const hint: "warm" | "cool" | undefined = call.args.hint;
      void hint;
    }
    const prompt: string | undefined = interrupts.value[0]?.interrupt.message;
    return h("div", [
      `${snapshot.value.version} ${pending.value.length} ${byGetter.value?.id} ${prompt}`,
      h(ToolCalls, { tracker, render: { confirm_deploy: DeployCard } }),
    ]);
  };
});

// @ts-check
// The Vue 3 binding: composables returning shallow refs over a tracker's
// snapshots, and <ToolCalls>, which renders each call with the
// application's per-tool components or slots. Written with `defineComponent`
// and `h`: nothing to compile in the package.
//
// Every composable of one tracker shares one store (./store.js: one tracker
// subscription, made while some consumer listens, published at most once
// per animation frame by default). A shallow ref is only set to a new
// object, and unchanged calls keep their identical objects, so a ref of one
// call triggers only when that call changes.
import { Fragment, defineComponent, getCurrentScope, h, onScopeDispose, shallowRef, toValue, watch } from "vue";
import { findCall, storeOf } from "./store.js";
import { argFieldReader, argsStatusReader, bindActions, callTree, callsToRender } from "./actions.js";

/**
 * A shallow ref of `select(snapshot)`, set on each publication of the
 * tracker's store, unsubscribed when the calling scope (the component's
 * setup, an `effectScope`) is disposed.
 *
 * @template T
 * @param {string} name
 * @param {import("./index.js").ToolCallTracker} tracker
 * @param {(snapshot: import("./index.js").Snapshot) => T} select
 * @param {{ coalesce?: boolean } | undefined} options
 */
function selected(name, tracker, select, options) {
  // Without a scope the subscription would outlive its consumer.
  if (!getCurrentScope()) throw new Error(`${name}() must be called in a component's setup() or an effectScope()`);
  const store = storeOf(tracker, options);
  const ref = shallowRef(select(store.getSnapshot()));
  const update = () => {
    ref.value = select(store.getSnapshot());
  };
  onScopeDispose(store.subscribe(update));
  return { ref, update };
}

/**
 * The tracker's current snapshot, as a shallow ref.
 *
 * @example
 * const snapshot = useToolCalls(tracker); // in setup()
 * const count = computed(() => snapshot.value.calls.length);
 */
export function useToolCalls(tracker, options) {
  return selected("useToolCalls", tracker, (s) => s, options).ref;
}

/**
 * One call by id (a string, a ref or a getter: a prop, say), as a shallow
 * ref: `undefined` until it starts, and triggered only when that call
 * changes.
 *
 * @example
 * const call = useToolCall(tracker, () => props.id);
 */
export function useToolCall(tracker, id, options) {
  const last = { index: -1 };
  const { ref, update } = selected("useToolCall", tracker, (s) => findCall(s.calls, toValue(id), last), options);
  if (typeof id !== "string") watch(() => toValue(id), update);
  return ref;
}

/**
 * The calls the application must answer (`snapshot.pendingCalls`), as a
 * shallow ref triggered only when that list changes.
 *
 * @example
 * const pending = usePendingCalls(tracker);
 */
export function usePendingCalls(tracker, options) {
  return selected("usePendingCalls", tracker, (s) => s.pendingCalls, options).ref;
}

/**
 * The thread's open interrupts (`snapshot.interrupts`), as a shallow ref
 * triggered only when they change.
 *
 * @example
 * const interrupts = useInterrupts(tracker);
 */
export function useInterrupts(tracker, options) {
  return selected("useInterrupts", tracker, (s) => s.interrupts, options).ref;
}

/**
 * One top-level field of a call's arguments, `{ value, complete }`
 * (`call.isComplete(field)`), as a shallow ref triggered only when the
 * field's value or completeness changes: a component reading a complete
 * field does not render again while other fields stream. The call id and
 * the field may be refs or getters.
 *
 * @example
 * const url = useArgField(tracker, () => props.id, "url");
 * watchEffect(() => url.value.complete && prefetch(url.value.value));
 */
export function useArgField(tracker, callId, field, options) {
  const read = argFieldReader();
  const { ref, update } = selected("useArgField", tracker, (s) => read(s, toValue(callId), toValue(field)), options);
  if (typeof callId !== "string" || typeof field !== "string") watch([() => toValue(callId), () => toValue(field)], update);
  return ref;
}

/**
 * Each top-level field of a call's arguments, `"streaming"` or
 * `"complete"` (`call.argsStatus()`, `{}` until the call starts), as a
 * shallow ref triggered only when a field appears or completes.
 *
 * @example
 * const status = useToolArgsStatus(tracker, "c1"); // status.value.url === "complete"
 */
export function useToolArgsStatus(tracker, callId, options) {
  const read = argsStatusReader();
  const { ref, update } = selected("useToolArgsStatus", tracker, (s) => read(s, toValue(callId)), options);
  if (typeof callId !== "string") watch(() => toValue(callId), update);
  return ref;
}

/**
 * The user's standing approvals (`snapshot.standingApprovals`, given by
 * `approve({ remember: "tool" })`), as a shallow ref triggered only when
 * they change.
 *
 * @example
 * const standing = useStandingApprovals(tracker);
 * // <button v-for="s in standing" @click="tracker.revokeApproval(s.tool)">Ask again for {{ s.tool }}</button>
 */
export function useStandingApprovals(tracker, options) {
  return selected("useStandingApprovals", tracker, (s) => s.standingApprovals, options).ref;
}

/** The default group of a subagent's calls: a `role="group"` element labelled with its name. */
const SubagentGroup = defineComponent({
  name: "AguiSubagentGroup",
  props: ["subagent"],
  setup(props, { slots }) {
    return () =>
      h(
        "div",
        { role: "group", "aria-label": props.subagent.name, "data-subagent-run-id": props.subagent.subagentRunId, "data-status": props.subagent.status },
        slots.default?.(),
      );
  },
});

/**
 * One call with its renderer (a component, or a slot function): rendered
 * again only when its props change (the call, its interrupt, the
 * renderer); the actions stay the same functions while the call and its
 * interrupt id do.
 */
const CallView = defineComponent({
  name: "AguiToolCall",
  props: ["tracker", "call", "interrupt", "component", "slot"],
  setup(props) {
    /** @type {{ tracker: unknown, key: string, actions: ReturnType<typeof bindActions> } | null} */
    let bound = null;
    return () => {
      const { tracker } = props;
      const interruptId = props.interrupt?.interrupt.id;
      const key = `${props.call.id}\0${interruptId ?? ""}`;
      if (bound?.key !== key || bound.tracker !== tracker) bound = { tracker, key, actions: bindActions(tracker, props.call.id, interruptId) };
      const given = { call: props.call, interrupt: props.interrupt, ...bound.actions };
      return props.component ? h(props.component, given) : props.slot(given);
    };
  },
});

/**
 * `<ToolCalls :tracker="tracker">`: every call, in first-start order. A
 * call to an advertised tool, or one awaiting an interrupt's approval, is
 * rendered by the component `render` names for its tool, or else by the
 * slot named after its tool; any other call by the `fallback` component or
 * the `#fallback` slot (or not at all). Each gets `call`, `interrupt` and
 * the actions bound to them (`approve`, `decline`, `answer`, `fail`,
 * `approveWithEdits`, `reject`) and renders again only when they change.
 *
 * Nested (the default; `:nested="false"` renders one flat list): right
 * after a call come the subagents it started (`parentToolCallId`), each as
 * the `subagent` component (a `role="group"` element by default, given
 * `subagent` and its calls in the default slot) holding that subagent's
 * calls, nested the same way. Every call is shown, pending ones of nested
 * subagents included.
 *
 * @example
 * <ToolCalls :tracker="tracker">
 *   <template #confirm_deploy="{ call, approve, decline }">...</template>
 *   <template #fallback="{ call }"><pre>{{ call.argsText }}</pre></template>
 * </ToolCalls>
 */
export const ToolCalls = defineComponent({
  name: "ToolCalls",
  props: {
    tracker: { type: Object, required: true },
    render: { type: Object, default: undefined },
    fallback: { type: [Object, Function], default: undefined },
    coalesce: { type: Boolean, default: true },
    nested: { type: Boolean, default: true },
    subagent: { type: [Object, Function], default: undefined },
  },
  setup(props, { slots }) {
    // Subscribed for the current tracker (and mode): a new one, and the old subscription goes.
    const snapshot = shallowRef();
    watch(
      () => [props.tracker, props.coalesce],
      ([tracker, coalesce], _, onCleanup) => {
        const store = storeOf(tracker, { coalesce });
        snapshot.value = store.getSnapshot();
        onCleanup(store.subscribe(() => (snapshot.value = store.getSnapshot())));
      },
      { immediate: true },
    );
    return () => {
      // A component named in `render` first, then the slot of that name.
      /** @type {Record<string, { component?: unknown, slot?: Function }>} */
      const renderers = {};
      for (const name of Object.keys(slots)) if (name !== "fallback") renderers[name] = { slot: slots[name] };
      for (const name of Object.keys(props.render ?? {})) renderers[name] = { component: props.render?.[name] };
      const fallback = props.fallback ? { component: props.fallback } : slots.fallback ? { slot: slots.fallback } : undefined;
      const entries = callsToRender(snapshot.value, renderers, fallback);
      const view = ({ call, interrupt, renderer }) => h(CallView, { key: call.id, tracker: props.tracker, call, interrupt, ...renderer });
      if (!props.nested || snapshot.value.subagents.length === 0) return entries.map(view);
      const group = /** @type {import("vue").Component} */ (props.subagent ?? SubagentGroup);
      const node = (n) =>
        n.kind === "call"
          ? h(Fragment, { key: n.key }, [n.entry ? view(n.entry) : null, ...n.subagents.map(node)])
          : h(group, { key: n.key, subagent: n.subagent }, { default: () => n.children.map(node) });
      return callTree(snapshot.value, entries).map(node);
    };
  },
});

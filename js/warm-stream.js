// The small stream the warm-ups run before a page's first stream: the
// default one (js/index.js, on the same thread once it is idle) and the
// worker (js/warm-worker.js). One clean run with one call, so that every
// event reaches the code it is to warm: its argument deltas end inside a
// string, an escape, a number and a literal, as a model's do, and hold
// every kind of JSON value. The page's warm-up also runs it as a call of
// the application's tool, advertised with a schema (`warmUpRun`): the
// validator's code, and the answer's.

// Each event's JSON, as an agent sends it.
const events = [
  '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
  '{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\\"q\\":\\"caf\\\\u00"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"e9 \\\\\\"x\\\\\\"\\",\\"n\\":-1.5"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"e1,\\"l\\":[true,nu"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"ll],\\"o\\":{}}"}',
  '{"type":"TOOL_CALL_END","toolCallId":"c1"}',
  '{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"found"}',
  '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}',
];

/** The stream's events, as objects. */
export const warmUpEvents = () => events.map((json) => JSON.parse(json));

/** The same events as event-stream frames, a frame per event, in the bytes a `fetch` body reads. */
export const warmUpFrames = () => events.map((json) => new TextEncoder().encode(`data: ${json}\n\n`));


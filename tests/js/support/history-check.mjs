// The strict history check every next-run input must pass: each assistant
// tool call followed at once by exactly one tool message, in order; no tool
// message without its call just before; no message twice; no call of an
// earlier turn lost; the user messages in order.
import assert from "node:assert/strict";

/**
 * @param {Array<object>} messages the input's messages
 * @param {{ calls?: string[], users?: string[] }} expected calls that must be there, user message ids in order
 */
export function checkHistory(messages, { calls = [], users } = {}) {
  const seenMessages = new Set();
  const seenCalls = new Set();
  const note = (id) => {
    assert.equal(typeof id, "string", "every message has an id");
    assert.ok(!seenMessages.has(id), `message ${id} twice`);
    seenMessages.add(id);
  };
  for (let k = 0; k < messages.length; ) {
    const m = messages[k++];
    note(m.id);
    assert.notEqual(m.role, "tool", `tool message ${m.id} (call ${m.toolCallId}) without its call just before`);
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls ?? []) {
      assert.ok(!seenCalls.has(call.id), `call ${call.id} twice`);
      seenCalls.add(call.id);
      const answer = messages[k++];
      assert.ok(answer, `call ${call.id} unanswered at the end`);
      assert.equal(answer.role, "tool", `call ${call.id} of ${m.id} not followed at once by its tool message`);
      assert.equal(answer.toolCallId, call.id, `after ${m.id}: answers out of order`);
      note(answer.id);
    }
  }
  for (const id of calls) assert.ok(seenCalls.has(id), `call ${id} of an earlier turn lost`);
  if (users) assert.deepEqual(messages.filter((m) => m.role === "user").map((m) => m.id), users);
}

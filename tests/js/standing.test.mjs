// Standing approvals in JS (rule S3): approve(id, { remember: "tool" }),
// the snapshot's standingApprovals and each call's consentFrom, revoking,
// and the React binding's approve(options) and useStandingApprovals.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { ToolCallRefusedError, ToolCallTracker } from "../../pkg/index.js";
import { ToolCalls, useStandingApprovals } from "../../pkg/react.js";
import { runStarted, runFinished, start, args, end } from "./support/events.mjs";

const DEPLOY = {
  name: "deploy",
  description: "Deploy a service",
  parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
};
const PICK = { name: "pick", description: "Pick", parameters: { type: "object" } };
const options = { tools: [DEPLOY, PICK], requireApproval: ["deploy"] };

function call(tracker, id, name, text) {
  for (const e of [start(id, name), args(id, text), end(id)]) tracker.push(e);
  return tracker.snapshot().calls.find((c) => c.id === id);
}

test("s3_approve_remember_approves_later_valid_calls_names_the_call_and_lists_the_approval", () => {
  const tracker = new ToolCallTracker(options);
  tracker.push(runStarted("r1"));
  call(tracker, "d1", "deploy", '{"service":"a"}');
  const snapshot = tracker.approve("d1", { remember: "tool" });
  assert.deepEqual(snapshot.standingApprovals, [{ tool: "deploy", toolCallId: "d1" }]);
  assert.ok(Object.isFrozen(snapshot.standingApprovals));
  const d1 = snapshot.calls[0];
  assert.equal(d1.consent, "approved");
  assert.equal(d1.consentFrom, undefined, "the user decided on d1 itself");

  const d2 = call(tracker, "d2", "deploy", '{"service":"b"}');
  assert.equal(d2.consent, "approved");
  assert.equal(d2.consentFrom, "d1");
  tracker.answer("d2", "deployed b"); // a tool requiring approval: approved by the standing decision
  const bad = call(tracker, "d3", "deploy", '{"service":3}');
  assert.equal(bad.consent, "unrequested", "arguments failing the schema are never covered");
  assert.equal(call(tracker, "p1", "pick", "{}").consent, "unrequested", "another tool");
  // An unchanged list keeps its object.
  const before = tracker.snapshot().standingApprovals;
  tracker.push(runFinished("r1"));
  assert.equal(tracker.snapshot().standingApprovals, before);

  const revoked = tracker.revokeApproval("deploy");
  assert.deepEqual(revoked.standingApprovals, []);
  assert.equal(revoked.calls[1].consentFrom, "d1", "answered: who decided stays on record");
  tracker.push(runStarted("r2"));
  assert.equal(call(tracker, "d4", "deploy", '{"service":"c"}').consent, "unrequested");
});

test("s3_approve_options_are_checked_and_a_refused_remember_changes_nothing", () => {
  const tracker = new ToolCallTracker(options);
  tracker.push(runStarted("r1"));
  call(tracker, "d1", "deploy", '{"service":"a"}');
  assert.throws(() => tracker.approve("d1", { remember: true }), { name: "TypeError", message: /options\.remember must be "tool"/ });
  assert.throws(() => tracker.approve("d1", 5), { name: "TypeError", message: /options must be an object/ });
  assert.throws(() => tracker.revokeApproval(5), { name: "TypeError", message: /tool must be a string/ });
  tracker.decline("d1");
  const before = tracker.snapshot();
  assert.throws(() => tracker.approve("d1", { remember: "tool" }), ToolCallRefusedError);
  assert.equal(tracker.snapshot(), before);
  assert.deepEqual(before.standingApprovals, []);
});

test("s3_react_approve_takes_remember_and_use_standing_approvals_lists_them", () => {
  const tracker = new ToolCallTracker(options);
  tracker.push(runStarted("r1"));
  call(tracker, "d1", "deploy", '{"service":"a"}');
  let approve;
  const Card = (props) => {
    approve = props.approve;
    return createElement("p", null, `${props.call.id}:${props.call.consent}:${props.call.consentFrom ?? "user"}`);
  };
  const List = () => {
    const standing = useStandingApprovals(tracker, { coalesce: false });
    return createElement("ul", null, standing.map((s) => createElement("li", { key: s.tool }, `${s.tool} from ${s.toolCallId}`)));
  };
  renderToString(createElement(ToolCalls, { tracker, render: { deploy: Card } }));
  approve({ remember: "tool" });
  call(tracker, "d2", "deploy", '{"service":"b"}');
  const html = renderToString(createElement("div", null, createElement(ToolCalls, { tracker, render: { deploy: Card } }), createElement(List)));
  assert.match(html, /d1:approved:user/);
  assert.match(html, /d2:approved:d1/);
  assert.match(html, /deploy from d1/);
});

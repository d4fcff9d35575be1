//! Ending a run locally: the user pressed stop, the connection dropped, or
//! the agent went away without `RUN_FINISHED` or `RUN_ERROR`.

use crate::machine::plan::{Op, Plan};
use crate::machine::{RunStatus, Tracker};

impl Tracker {
    /// Ends the active run locally: its status becomes
    /// [`RunStatus::Aborted`] (with `reason` as its error), every open call
    /// is abandoned as by `RUN_ERROR` (rule L5), and chunk lanes close. The
    /// thread goes on: the next run's input may be declared
    /// ([`Tracker::start_run`], JS `nextRun`) and a new `RUN_STARTED` read;
    /// any other event of the aborted run is refused (L3). With no run
    /// active and no call open, nothing changes. It cannot fail.
    ///
    /// ```
    /// use agui_tool_calls::{CallStatus, Options, RunStatus, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#).unwrap();
    /// t.abort_run(Some("the user pressed stop"));
    /// assert_eq!(t.run().status, RunStatus::Aborted);
    /// assert_eq!(t.call("c1").unwrap().status, CallStatus::Abandoned);
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#).unwrap();
    /// ```
    pub fn abort_run(&mut self, reason: Option<&str>) {
        let running = self.run.status == RunStatus::Running;
        if !running && self.open.is_empty() {
            return;
        }
        let mut plan = Plan::new(self.events_seen);
        for &i in &self.open {
            plan.abandon(i);
        }
        plan.ops.push(Op::ClearAllLanes);
        // Abandoning never fails (only a normal finish with one running does).
        let _ = self.plan_subagents_left_running(&mut plan, false);
        if running {
            plan.ops.push(Op::RunAborted {
                reason: reason.map(str::to_owned),
            });
        }
        self.apply(&mut plan);
    }
}

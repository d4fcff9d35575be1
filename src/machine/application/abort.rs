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
    /// active and no call open, nothing changes, but for a run input
    /// declared ([`Tracker::start_run`]) that no `RUN_STARTED` followed:
    /// its request failed before the run started (an HTTP error, a network
    /// error, a client that refused the stream), and that run is the one
    /// aborted, with `reason`; no call changes. It cannot fail.
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
            if std::mem::take(&mut self.declared) {
                // The run shown is the one that never started.
                let run = &mut self.run;
                run.status = RunStatus::Aborted;
                run.run_id = None;
                run.parent_run_id = None;
                run.outcome = None;
                run.result = None;
                run.error = reason.map(|r| (r.to_owned(), None));
                self.changes.run = true;
                self.version += 1;
            }
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

//! Applying a validated plan. Nothing here can fail: every rule was
//! checked while planning.

use super::plan::{CallRef, Op, Ops, Plan, Start, Target};
use super::state::{CallStatus, Consent, ResultSource, RunState, RunStatus, ToolCall, ToolResult};
use super::{indices, Names, Tracker, UnmatchedResult};
use crate::args::ArgsReader;
use crate::events::{JsonStr, Kept, Message, Opaque, Outcome, Tool};
use crate::quote::{quoted, quoted_list};
use crate::violation::{Severity, Violation};

impl Tracker {
    pub(crate) fn apply(&mut self, plan: &mut Plan) {
        let index = plan.index;
        self.retained = self.retained.saturating_add(plan.cost);
        let mut last = None;
        let mut changed = false;
        let Ops { first, rest } = std::mem::take(&mut plan.ops);
        if let Some(op) = first {
            changed |= self.apply_op(index, op, &mut last);
        }
        for op in rest {
            changed |= self.apply_op(index, op, &mut last);
        }
        if changed {
            self.version += 1;
        }
    }

    /// Applies one op; whether anything the snapshot shows changed.
    fn apply_op(&mut self, index: usize, op: Op, last: &mut Option<usize>) -> bool {
        match op {
            Op::End(i) => self.end_call(i),
            Op::Abandon(i) => self.close_call(i, CallStatus::Abandoned),
            Op::ClearToolLane(key) => {
                self.lanes.tool.remove(&key);
                return false;
            }
            Op::ClearTextLane(key) => {
                self.lanes.clear_text(&key);
                return false;
            }
            Op::ClearAllLanes => {
                self.lanes = Default::default();
                return false;
            }
            Op::Start(start) => *last = Some(self.start_call(*start)),
            Op::Args(call, delta) => {
                let i = match call {
                    CallRef::Index(i) => i,
                    CallRef::Last => match *last {
                        Some(i) => i,
                        None => return false,
                    },
                };
                self.last_call = i;
                return self.append_args(index, i, &delta);
            }
            Op::Result {
                call,
                tool_call_id,
                result,
            } => self.attach_result(call, tool_call_id, *result),
            Op::Merge(target, metadata) => {
                let (kept, shown) = self.kept_mut(target, *last);
                if let Some(kept) = kept {
                    kept.merge(&metadata);
                }
                return shown;
            }
            Op::Encrypted(target, value, value_type) => {
                let (kept, shown) = self.kept_mut(target, *last);
                if let Some(kept) = kept {
                    kept.encrypted_value = Some(value);
                    // The type describes one value and goes with it.
                    kept.encrypted_value_type = value_type;
                }
                return shown;
            }
            Op::MessageOwner(message, owner) => {
                self.note_message(&message);
                let (owners, tagged) = (&mut self.owners, &mut self.tagged);
                self.messages.get_or_insert_with(message, || {
                    tagged.note(owner.as_deref());
                    owners.id(owner)
                });
                return false;
            }
            Op::TextLane(key, message) => {
                self.lanes.open_text(key, message);
                return false;
            }
            Op::RunStarted {
                thread_id,
                run_id,
                parent_run_id,
            } => self.begin_run(thread_id, run_id, parent_run_id),
            Op::RunFinished { result, outcome } => self.finish_run(index, result, outcome),
            Op::RunError { message, code } => {
                self.run.status = RunStatus::Errored;
                self.run.error = Some((message, code));
                self.changes.run = true;
                self.leave_unanswered();
            }
            Op::RunAborted { reason } => {
                self.run.status = RunStatus::Aborted;
                self.run.error = reason.map(|r| (r, None));
                self.changes.run = true;
                self.leave_unanswered();
            }
            Op::RunTools(tools, from_stream) => self.set_run_tools(tools, from_stream),
            Op::Seed {
                messages,
                run_input,
            } => self.seed(messages, run_input),
            Op::Record(v) => self.violations.record(*v),
            Op::Subagent(op) => self.apply_subagent(op),
        }
        true
    }

    /// What the call or message `target` keeps (rule F10), to change, and
    /// whether a snapshot shows the change (a call's: marked changed). A
    /// message the thread does not know keeps nothing.
    fn kept_mut(&mut self, target: Target, last: Option<usize>) -> (Option<&mut Kept>, bool) {
        match target {
            Target::Call(CallRef::Index(i)) => self.touched_kept(i),
            Target::Call(CallRef::Last) => match last {
                Some(i) => self.touched_kept(i),
                None => (None, false),
            },
            Target::Message(id) if self.message_seq.contains_key(id.as_str()) => {
                (Some(self.message_kept_mut(id)), false)
            }
            Target::Message(_) => (None, false),
        }
    }

    fn touched_kept(&mut self, i: usize) -> (Option<&mut Kept>, bool) {
        self.touch(i);
        (Some(&mut self.calls[i].kept), true)
    }

    /// What message `id` keeps (rule F10), if the thread holds any.
    pub(crate) fn message_kept(&self, id: &str) -> Option<&Kept> {
        self.kept_at.get(id).map(|&k| &self.kept_messages[k].1)
    }

    /// What message `id` keeps, made empty when it keeps nothing yet.
    fn message_kept_mut(&mut self, id: String) -> &mut Kept {
        let k = if let Some(&k) = self.kept_at.get(id.as_str()) {
            k
        } else {
            self.kept_messages.push((id.clone(), Kept::default()));
            self.kept_at.insert(id, self.kept_messages.len() - 1);
            self.kept_messages.len() - 1
        };
        &mut self.kept_messages[k].1
    }

    /// Records where a message id first appeared in the thread (see
    /// [`Tracker::message_position`]).
    fn note_message(&mut self, id: &str) {
        if !self.message_seq.contains_key(id) {
            let seq = self.message_seq.len();
            self.message_seq.insert(id.to_owned(), seq);
        }
    }

    /// A run that failed or was stopped finished none of its calls: one it
    /// completed and nothing answered will never be answered either (never
    /// pending), so it is closed in the next input like an abandoned one
    /// (rule F11).
    fn leave_unanswered(&mut self) {
        for &i in &self.run_calls {
            let call = &self.calls[i];
            if call.status == CallStatus::Complete && !call.answered() {
                self.unclosed.insert(i);
            }
        }
    }

    /// Marks a call changed for the next [`Tracker::take_changes`].
    pub(crate) fn touch(&mut self, i: usize) {
        self.touch_text(i);
        self.calls[i].meta_dirty = true;
    }

    /// Marks a change that only appended argument text: the binding can
    /// then send the new text alone (the common case, one per delta).
    fn touch_text(&mut self, i: usize) {
        let call = &mut self.calls[i];
        if !call.dirty {
            call.dirty = true;
            self.changes.calls.push(i);
        }
    }

    fn close_call(&mut self, i: usize, status: CallStatus) {
        self.open.remove(&i);
        // The event being applied was counted already.
        let closing_event = self.events_seen.checked_sub(1);
        let call = &mut self.calls[i];
        if call.args_error.is_none() {
            call.args.close();
        }
        call.status = status;
        call.closed_at = closing_event;
        call.lane = None;
        if status == CallStatus::Abandoned && !call.answered() {
            // The application's history may hold it half-streamed (rule F11).
            self.unclosed.insert(i);
        }
        self.touch(i);
    }

    /// `TOOL_CALL_END`: the text is complete (rule T6).
    fn end_call(&mut self, i: usize) {
        self.close_call(i, CallStatus::Complete);
        self.validate_call(i);
        self.cover_by_standing(i);
    }

    fn start_call(&mut self, start: Start) -> usize {
        let advertised = self.tool(&start.name).is_some();
        let i = if let Some(i) = start.reopen {
            self.withdraw_undelivered_answer(i);
            self.unclosed.remove(&i);
            let call = &mut self.calls[i];
            call.reopen_count = call.reopen_count.saturating_add(1);
            call.validation = super::Validation::Unvalidated;
            i
        } else {
            if let Some(parent) = &start.parent {
                self.note_message(parent);
                self.message_ids.insert(parent.clone());
            }
            let i = self.calls.len();
            let mut call = ToolCall::new(start.id.clone(), start.name, self.new_args());
            call.seq = self.message_seq.len();
            call.parent_message_id = start.parent;
            call.owner = start.owner;
            self.calls.push(call);
            self.by_id.insert(start.id, i);
            i
        };
        let call = &mut self.calls[i];
        self.tagged.note(call.owner.as_deref());
        call.status = CallStatus::Open;
        call.pending = false;
        call.cancelled = false;
        call.advertised = advertised;
        call.run_id = self.run.run_id.clone();
        if let Some(key) = start.lane {
            call.lane = Some(key.clone());
            self.lanes.tool.insert(key, i);
        }
        self.open.insert(i);
        self.run_calls.push(i);
        self.touch(i);
        i
    }

    /// A reopened call's arguments change: an application answer no run
    /// input carried yet answered other arguments, so it is withdrawn, and
    /// consent given for them no longer holds (rules F5, S3).
    fn withdraw_undelivered_answer(&mut self, i: usize) {
        let call = &mut self.calls[i];
        if self.undelivered.remove(&i) {
            call.results
                .retain(|r| r.source != ResultSource::Application);
        }
        if !call.answered() {
            call.consent = Consent::Unrequested;
            call.consent_from = None;
        }
    }

    fn new_args(&self) -> ArgsReader {
        ArgsReader::new(self.args_limits())
    }

    /// Appends a delta (rule T4); a limit hit marks the call (rule S5).
    /// Whether anything a snapshot shows changed.
    fn append_args(&mut self, index: usize, i: usize, delta: &JsonStr) -> bool {
        // One lookup of the call for the whole delta.
        let call = &mut self.calls[i];
        if call.args_error.is_some() {
            return false;
        }
        let before = call.args.text().len();
        if let Err(e) = call.args.push_delta(delta) {
            let message = format!("arguments of call {}: {}", quoted(&call.id), e.message);
            let v = Violation::new("S5", Severity::Violation, index, message).with_call(&call.id);
            call.args_error = Some(e);
            self.violations.record(v);
            self.touch(i);
            return true;
        }
        // A delta that adds no text (empty, or a high surrogate held until
        // its pair arrives) changes nothing a snapshot shows: the call keeps
        // its identical object (rule N1), and the version stays. Marked as
        // `touch_text` does.
        let changed = call.args.text().len() != before;
        if changed && !call.dirty {
            call.dirty = true;
            self.changes.calls.push(i);
        }
        changed
    }

    pub(crate) fn attach_result(
        &mut self,
        call: Option<usize>,
        tool_call_id: String,
        result: ToolResult,
    ) {
        self.message_ids.insert(result.message_id.clone());
        self.tagged.note(result.owner.as_deref());
        match call {
            Some(i) => {
                let call = &mut self.calls[i];
                if result.answers() {
                    call.pending = false;
                    self.unclosed.remove(&i);
                }
                call.results.push(result);
                self.touch(i);
            }
            None => {
                self.unmatched.push(UnmatchedResult {
                    tool_call_id,
                    result,
                });
            }
        }
    }

    /// Rule L6: a new run; per-run bookkeeping resets.
    fn begin_run(&mut self, thread_id: String, run_id: String, parent_run_id: Option<String>) {
        let runs_started = self.run.runs_started.saturating_add(1);
        self.run = RunState {
            status: RunStatus::Running,
            thread_id: Some(thread_id),
            run_id: Some(run_id),
            parent_run_id,
            runs_started,
            ..RunState::idle()
        };
        self.run_calls.clear();
        self.tagged.clear();
        self.changes.run = true;
        self.declared = false;
        self.close_interrupts();
    }

    /// Rules L7, L8, F2, F3, F7, I1-I3: the run's outcome, its pending
    /// calls and its interrupts.
    fn finish_run(&mut self, index: usize, result: Option<Opaque>, outcome: Option<Outcome>) {
        let mut mine = std::mem::take(&mut self.run_calls);
        indices::sort(&mut mine);
        mine.dedup();
        if let Some(Outcome::Interrupt { interrupts }) = &outcome {
            self.open_interrupts(index, interrupts);
        }
        let cancelled = outcome == Some(Outcome::Cancelled);
        let mut derived = Vec::new();
        for &i in &mine {
            let call = &mut self.calls[i];
            let awaiting = call.awaiting_interrupt.is_some();
            if call.status == CallStatus::Complete && !call.answered() && !awaiting {
                // A cancelled run waits for nothing (L8): its unanswered
                // calls are not pending, and are marked for the history.
                if cancelled {
                    call.cancelled = true;
                    // Closed in the next history unless the application
                    // answers it: never dangling (rule L8).
                    self.unclosed.insert(i);
                } else {
                    call.pending = true;
                    derived.push(i);
                }
                self.touch(i);
            }
        }
        if let Some(Outcome::Success {
            pending_tool_call_ids: Some(ids),
        }) = &outcome
        {
            self.check_declared_pending(index, ids, &derived);
        }
        for &i in &derived {
            let call = &self.calls[i];
            if !call.advertised {
                let message = format!(
                    "call {} to unadvertised tool {} left unanswered",
                    quoted(&call.id),
                    quoted(&call.name)
                );
                let v = Violation::new("F7", Severity::Warning, index, message).with_call(&call.id);
                self.violations.record(v);
            }
        }
        self.run.status = match outcome {
            Some(Outcome::Interrupt { .. }) => {
                self.check_frontend_calls_interrupted(index, &derived);
                RunStatus::Interrupted
            }
            Some(Outcome::Cancelled) => RunStatus::Cancelled,
            _ => RunStatus::Finished,
        };
        self.run.outcome = outcome;
        self.run.result = result;
        self.changes.run = true;
    }

    /// Rule F3: a non-empty `pendingToolCallIds` must be the derived list.
    fn check_declared_pending(&mut self, index: usize, declared: &[String], derived: &[usize]) {
        // Loops rather than `collect` over adapters here and elsewhere in the
        // machine: each adapter chain is generic code of its own (size).
        let mut ids: Vec<&str> = Vec::with_capacity(derived.len());
        for &i in derived {
            ids.push(&self.calls[i].id);
        }
        let derived = ids;
        let same =
            declared.len() == derived.len() && declared.iter().zip(&derived).all(|(a, b)| a == b);
        if !declared.is_empty() && !same {
            let message = format!(
                "outcome.pendingToolCallIds {} disagrees with the pending calls {}",
                quoted_list(declared.iter().map(String::as_str)),
                quoted_list(derived.iter().copied())
            );
            self.violations
                .record(Violation::new("F3", Severity::Violation, index, message));
        }
    }

    /// Rule F1: the tools the run input advertises replace the last ones.
    /// A schema the stream gives is the application's own when one of the
    /// application's tools of that name has the same `parameters` (the
    /// echo of its own run input); else only the stream vouches for it.
    fn set_run_tools(&mut self, tools: Option<Vec<Tool>>, from_stream: bool) {
        self.schemas.forget();
        self.stream_schemas.clear();
        self.run_tools.clear();
        if !from_stream {
            self.application_tools.clear();
        }
        for tool in tools.unwrap_or_default() {
            let tool = std::rc::Rc::new(tool);
            if !from_stream {
                self.application_tools.insert(std::rc::Rc::clone(&tool));
            } else if !self.is_applications_schema(&tool) {
                self.stream_schemas.insert(tool.name.clone());
            }
            self.run_tools.insert(tool);
        }
    }

    fn is_applications_schema(&self, tool: &Tool) -> bool {
        // Compared in the canonical form the validator's `const` uses: no
        // second equality routine in the wasm module.
        let text = crate::schema::value::canonical;
        let theirs = text(&tool.parameters);
        [&self.option_tools, &self.application_tools]
            .iter()
            .any(|tools| {
                tools
                    .get(&tool.name)
                    .is_some_and(|t| text(&t.parameters) == theirs)
            })
    }

    /// Rule A5: history seeds message owners, closed calls and answers.
    /// What the tracker already knows wins over history. A run input's
    /// tool messages also deliver the application's answers (rule F5).
    fn seed(&mut self, messages: Vec<Message>, run_input: bool) {
        if run_input {
            self.forget_unheld_closings(&messages);
        }
        let first_seeded = self.calls.len();
        for message in messages {
            let stores_kept = self.stores_kept(&message, run_input);
            self.note_message(&message.id);
            let owners = &mut self.owners;
            let owner = *self
                .messages
                .get_or_insert_with(message.id.clone(), || owners.id(message.owner));
            let owner = self.owners.name(owner).map(str::to_owned);
            if stores_kept {
                *self.message_kept_mut(message.id.clone()) = message.kept;
            }
            for call in message.tool_calls {
                match self.by_id.get(&call.id) {
                    None => self.seed_call(call, &message.id, owner.clone()),
                    Some(&i) if !run_input && self.calls[i].kept != call.kept => {
                        self.calls[i].kept = call.kept;
                        self.touch(i);
                    }
                    Some(_) => {}
                }
            }
            if let Some(id) = message.tool_call_id {
                if run_input {
                    self.mark_delivered(&id);
                }
                self.seed_answer(id, message.id, message.content, message.error, owner);
            }
        }
        self.pend_restored(first_seeded);
    }

    /// Rule F10: whether seeding `message` stores what it keeps. A
    /// `MESSAGES_SNAPSHOT` restating an assistant message replaces what it
    /// keeps, withdrawn artefacts included; a run input (the application's
    /// own history) fills what the tracker lacks. The budget charges the
    /// same decision (`charge_seed`).
    pub(crate) fn stores_kept(&self, message: &Message, run_input: bool) -> bool {
        let holds = self.kept_at.contains_key(message.id.as_str());
        message.role == "assistant"
            && if run_input {
                !holds && !message.kept.is_empty()
            } else {
                holds || !message.kept.is_empty()
            }
    }

    /// Whether call `i` holds the result of message `message_id` already.
    /// Only an id the thread uses can be one: a history of many tool
    /// messages for one call is not a scan of its results per message.
    pub(crate) fn holds_result(&self, i: usize, message_id: &str) -> bool {
        self.message_ids.contains(message_id)
            && self.calls[i]
                .results
                .iter()
                .any(|r| r.message_id == message_id)
    }

    /// Rule F8: a call to an advertised tool that history holds with no
    /// tool message answering it is pending again, as it was before the
    /// page reloaded: the application must answer it, nothing else does.
    /// Only calls this history made known (what the tracker already knew
    /// wins over history).
    fn pend_restored(&mut self, first_seeded: usize) {
        for i in first_seeded..self.calls.len() {
            let call = &mut self.calls[i];
            if call.advertised && !call.answered() && !call.pending {
                call.pending = true;
                self.cover_by_standing(i);
                self.touch(i);
            }
        }
    }

    /// Rule F11: an abandoned call a run input neither holds nor answers is
    /// not in the application's history: it needs no closing message.
    fn forget_unheld_closings(&mut self, messages: &[Message]) {
        if self.unclosed.is_empty() {
            return;
        }
        let mut held = Names::default();
        for m in messages {
            for c in &m.tool_calls {
                held.insert(c.id.clone());
            }
            if let Some(id) = &m.tool_call_id {
                held.insert(id.clone());
            }
        }
        let mut gone = Vec::new();
        for &i in &self.unclosed {
            if !held.contains(&self.calls[i].id) {
                gone.push(i);
            }
        }
        for i in gone {
            self.unclosed.remove(&i);
        }
    }

    /// A run input carries an answer to this call: the application's own
    /// answer need not be listed for the next run any more.
    fn mark_delivered(&mut self, tool_call_id: &str) {
        if let Some(&i) = self.by_id.get(tool_call_id) {
            let closed = self.unclosed.remove(&i);
            if self.undelivered.remove(&i) || closed {
                self.touch(i);
            }
        }
    }

    fn seed_call(
        &mut self,
        call: crate::events::HistoryCall,
        message_id: &str,
        owner: Option<String>,
    ) {
        let mut args = self.new_args();
        let args_error = args.push(&call.arguments).err();
        let advertised = self.tool(&call.name).is_some();
        let mut seeded = ToolCall::new(call.id.clone(), call.name, args);
        seeded.seq = self.message_seq.len();
        seeded.status = CallStatus::Complete;
        seeded.parent_message_id = Some(message_id.to_owned());
        seeded.owner = owner;
        seeded.advertised = advertised;
        seeded.from_history = true;
        seeded.args_error = args_error;
        seeded.kept = call.kept;
        let i = self.calls.len();
        self.calls.push(seeded);
        self.by_id.insert(call.id, i);
        self.validate_call(i);
        self.touch(i);
    }

    /// A tool message of history answers its call once (by message id).
    fn seed_answer(
        &mut self,
        tool_call_id: String,
        message_id: String,
        content: Option<Opaque>,
        error: Option<String>,
        owner: Option<String>,
    ) {
        let Some(&i) = self.by_id.get(&tool_call_id) else {
            return;
        };
        // Rule I3: only a resume entry answers a call awaiting approval.
        if self.calls[i].awaiting_interrupt.is_some() {
            return;
        }
        if self.holds_result(i, &message_id) {
            return;
        }
        let result = ToolResult {
            message_id,
            content: content.unwrap_or_else(Opaque::null),
            error,
            owner,
            source: ResultSource::History,
            event_index: None,
            rejected: false,
        };
        self.attach_result(Some(i), tool_call_id, result);
    }
}

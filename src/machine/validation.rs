//! Rules S1 and S2: when a call to an advertised tool closes, its arguments
//! are validated against the tool's `parameters` schema; a call with no
//! schema to check is marked unvalidated, for the application to scrutinise.

use super::Tracker;
use crate::events::Tool;
use crate::schema::{Failures, PatternEngine, Schema, ValidationError};
use crate::HashMap;
use std::fmt;
use std::mem::size_of;
use std::rc::Rc;

/// What validation says of a call's arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Validation {
    /// Not checked: the call is open, its tool is not advertised, the tool
    /// has no `parameters` schema, or the schema does not compile (rule S2).
    #[default]
    Unvalidated,
    /// The arguments satisfy the tool's schema.
    Valid,
    /// They do not: the failures, each with its instance path and keyword,
    /// the first 100 (`MAX_ERRORS`) kept and all
    /// counted (fewer kept when the thread's budget cannot hold them, see
    /// `Tracker::validate_call`). Empty when the text did not even parse
    /// (the parse error is on the call).
    Invalid(Failures),
}

/// The advertised tools' schemas, each compiled once, on first use.
#[derive(Clone)]
pub(crate) struct Schemas {
    /// Compiles the patterns of the application's own schemas.
    engine: Rc<dyn PatternEngine>,
    /// Compiles the patterns of schemas only the stream supplied.
    stream_engine: Rc<dyn PatternEngine>,
    /// Each tool's place in `compiled`: a map of the type the tracker's id
    /// index has, so the wasm module carries one hash-map instantiation
    /// less.
    by_name: HashMap<String, usize>,
    /// `None`: the tool has no usable schema.
    compiled: Vec<Option<Rc<Schema>>>,
}

impl Schemas {
    pub(crate) fn new(engine: Rc<dyn PatternEngine>) -> Self {
        Schemas {
            engine,
            stream_engine: Rc::new(StreamPatterns),
            by_name: HashMap::default(),
            compiled: Vec::new(),
        }
    }

    /// The advertised tools changed: compile again on next use.
    pub(crate) fn forget(&mut self) {
        self.by_name.clear();
        self.compiled.clear();
    }

    /// The compiled schema of `tool`; `from_stream` when only the stream
    /// supplied it (rule S1: its patterns are not run, see `StreamPatterns`).
    fn of(&mut self, tool: &Tool, from_stream: bool) -> Option<Rc<Schema>> {
        if let Some(&at) = self.by_name.get(&tool.name) {
            return self.compiled.get(at).cloned().flatten();
        }
        let engine = if from_stream {
            &self.stream_engine
        } else {
            &self.engine
        };
        let schema = match &tool.parameters {
            crate::value::Value::Null => None,
            parameters => Schema::compile(parameters, &**engine).ok().map(Rc::new),
        };
        self.by_name.insert(tool.name.clone(), self.compiled.len());
        self.compiled.push(schema.clone());
        schema
    }
}

impl fmt::Debug for Schemas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schemas")
            .field("compiled", &self.compiled.len())
            .finish_non_exhaustive()
    }
}

/// The engine a tracker compiles `pattern`s with unless given one: native
/// builds have an ECMAScript engine in Rust; the wasm binding always hands
/// over the host's `RegExp`.
pub(crate) fn default_engine() -> Rc<dyn PatternEngine> {
    #[cfg(not(target_arch = "wasm32"))]
    return Rc::new(crate::schema::RegressEngine);
    #[cfg(target_arch = "wasm32")]
    return Rc::new(NoPatterns);
}

/// Refuses every pattern, so a schema using one stays unvalidated rather
/// than validated wrongly.
#[cfg(target_arch = "wasm32")]
struct NoPatterns;

#[cfg(target_arch = "wasm32")]
impl PatternEngine for NoPatterns {
    fn compile(&self, _: &str) -> Result<Box<dyn crate::schema::Pattern>, String> {
        Err("no pattern engine".into())
    }
}

/// The engine for schemas only the stream supplied
/// (`RUN_STARTED.input.tools` that match none of the application's): it
/// compiles no pattern, so such a schema with a `pattern` or
/// `patternProperties` leaves its calls unvalidated (rule S2). The host's
/// `RegExp` backtracks: `^(a+)+$` against 30 characters takes 45 seconds,
/// and a producer must not be able to hang the page (rule S5).
pub(crate) struct StreamPatterns;

impl PatternEngine for StreamPatterns {
    fn compile(&self, source: &str) -> Result<Box<dyn crate::schema::Pattern>, String> {
        Err(format!(
            "pattern {} comes from the stream, not from the application: not run",
            crate::quote::quoted(source)
        ))
    }
}

impl Tracker {
    /// The compiled schema of an advertised call's tool, if it has one.
    fn call_schema(&mut self, i: usize) -> Option<Rc<Schema>> {
        let call = &self.calls[i];
        let (tool, from_stream) = match self.run_tools.get(&call.name) {
            Some(tool) => (Some(tool), self.stream_schemas.contains(&call.name)),
            None => (self.option_tools.get(&call.name), false),
        };
        tool.filter(|_| call.advertised)
            .and_then(|t| self.schemas.of(t, from_stream))
    }

    /// Arguments the application edited for call `i` against its tool's
    /// schema (rule I4): each failure, none when the tool has no schema.
    pub(crate) fn validate_args(
        &mut self,
        i: usize,
        args: &crate::value::Value,
    ) -> Vec<ValidationError> {
        self.call_schema(i)
            .map(|schema| schema.validate(args).errors)
            .unwrap_or_default()
    }

    /// Validates a call that just closed (or was seeded from history).
    ///
    /// The failures kept count towards `max_thread_bytes` (rule S5). They
    /// are known only now, while the event is applied and nothing may fail
    /// any more: so as many are kept as the budget holds, all are counted,
    /// and the next event that keeps anything finds the budget spent.
    pub(crate) fn validate_call(&mut self, i: usize) {
        let schema = self.call_schema(i);
        let call = &self.calls[i];
        // The value is parsed for the check alone, and dropped after it.
        let validation = match schema.map(|schema| (schema, call.arguments())) {
            Some((schema, Some(Ok(args)))) => match schema.validate(&args) {
                failures if failures.is_empty() => Validation::Valid,
                mut failures => {
                    self.charge_failures(&mut failures);
                    Validation::Invalid(failures)
                }
            },
            Some((_, Some(Err(_)))) => Validation::Invalid(Failures::default()),
            _ => Validation::Unvalidated,
        };
        self.calls[i].validation = validation;
    }

    /// Adds what `failures` keep to the bytes the thread retains, first
    /// dropping (still counted) those past `max_thread_bytes`.
    fn charge_failures(&mut self, failures: &mut Failures) {
        let mut cost = 0;
        let mut kept = 0;
        for e in &failures.errors {
            let bytes = error_bytes(e);
            if self.over_budget(cost + bytes).is_some() {
                break;
            }
            cost += bytes;
            kept += 1;
        }
        failures.errors.truncate(kept);
        failures.errors.shrink_to_fit();
        self.retained += cost;
    }
}

/// One kept failure: the record, its path and message.
fn error_bytes(e: &ValidationError) -> usize {
    size_of::<ValidationError>() + e.path.len() + e.message.len()
}

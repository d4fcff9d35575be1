//! Events as JSON into the tracker, mixed with the application's calls
//! (answer, fail, decline, approve, start the next run): no panic, a refused
//! event or operation changes nothing, partial values are well formed, and
//! the change records rebuild every call's text.

use crate::check::{run_step, Mirror};
use crate::script::Script;
use agui_tool_calls::Tracker;
use arbitrary::{Arbitrary, Unstructured};

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Ok(script) = Script::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let mut tracker = Tracker::new(script.options.get());
    let mut mirror = Mirror::default();
    for step in &script.steps {
        run_step(&mut tracker, step, &mut mirror);
    }
    mirror.take(&mut tracker);
}

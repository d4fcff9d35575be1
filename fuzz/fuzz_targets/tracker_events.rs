//! Events as JSON into the tracker, mixed with the application's calls
//! (answer, fail, decline, approve, start the next run): no panic, a refused
//! event or operation changes nothing, partial values are well formed, and
//! the change records rebuild every call's text.

#![no_main]

use agui_tool_calls::Tracker;
use agui_tool_calls_fuzz::check::{run_step, Mirror};
use agui_tool_calls_fuzz::script::Script;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|script: Script| {
    let mut tracker = Tracker::new(script.options.get());
    let mut mirror = Mirror::default();
    for step in &script.steps {
        run_step(&mut tracker, step, &mut mirror);
    }
    mirror.take(&mut tracker);
});

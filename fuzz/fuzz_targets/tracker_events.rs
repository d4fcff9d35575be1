//! The `tracker_events` target: [`agui_tool_calls_fuzz::targets::tracker_events`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::tracker_events::run(data));

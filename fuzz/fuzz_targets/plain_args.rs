//! The `plain_args` target: [`agui_tool_calls_fuzz::targets::plain_args`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::plain_args::run(data));

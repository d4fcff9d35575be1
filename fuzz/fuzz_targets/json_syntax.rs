//! The `json_syntax` target: [`agui_tool_calls_fuzz::targets::json_syntax`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::json_syntax::run(data));

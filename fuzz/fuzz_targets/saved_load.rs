//! The `saved_load` target: [`agui_tool_calls_fuzz::targets::saved_load`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::saved_load::run(data));

//! The `sse_split` target: [`agui_tool_calls_fuzz::targets::sse_split`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::sse_split::run(data));

//! The `schema` target: [`agui_tool_calls_fuzz::targets::schema`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::schema::run(data));

//! The `args_reader` target: [`agui_tool_calls_fuzz::targets::args_reader`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agui_tool_calls_fuzz::targets::args_reader::run(data));

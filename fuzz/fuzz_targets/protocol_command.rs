#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiyuan_fuzz::protocol_command(data));

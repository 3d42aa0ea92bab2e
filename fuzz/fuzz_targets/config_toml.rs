#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qiyuan_fuzz::config_toml(data));

#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| snowmint_fuzz::lock_file(data));

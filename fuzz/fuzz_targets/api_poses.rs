#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| obbtree_fuzz::api_poses(data));

#![no_main]
//! The order packet: a packet that reads writes back to the same bytes.
use iron3d_formats::order::OrderPacket;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(packet) = OrderPacket::parse(data) {
        assert_eq!(packet.to_bytes(), data);
    }
});

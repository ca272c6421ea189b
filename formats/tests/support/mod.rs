//! Shared harness of the in-suite mutation tests: a counting global allocator
//! that records peak heap use, and a driver that feeds thousands of corrupted
//! variants of a valid file to a reader; and checks of the exact error a
//! reader returns.
//!
//! A test binary that uses it declares the allocator once:
//! `#[global_allocator] static ALLOC: support::CountingAlloc = support::CountingAlloc;`

#![allow(dead_code)] // each test binary uses a different part of the harness

use iron3d_formats::archive::nres::NewEntry;
use iron3d_formats::error::{FormatError, Problem};
use iron3d_formats::unitdat::{PartClass, PartSpec};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live and peak bytes of the current thread's allocations while a
/// measurement is active (other test threads are not counted).
pub struct CountingAlloc;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn note(delta: isize, size: usize) {
    // try_with: allocation during thread teardown must not panic.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
    if delta > 0 {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
    }
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        note(layout.size() as isize, layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize), 0);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as isize - layout.size() as isize, new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Peak extra heap bytes (on this thread) while `f` runs, and `f`'s result.
pub fn peak_heap<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let base = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(base));
    let r = f();
    let peak = PEAK.with(|p| p.get());
    ((peak - base).max(0) as usize, r)
}

/// A corrupted variant of a valid input, with a label for failure messages.
pub struct Variant {
    pub label: String,
    pub bytes: Vec<u8>,
}

/// Corrupted variants of `valid`: truncation at every offset in `cuts`
/// (every offset when `None`), every byte flipped at a spread of positions,
/// and every 4-byte aligned word set to values that push counts, sizes and
/// offsets out of range.
pub fn variants(valid: &[u8], cuts: Option<&[usize]>) -> Vec<Variant> {
    let mut out = Vec::new();
    let all: Vec<usize> = (0..valid.len()).collect();
    for &cut in cuts.unwrap_or(&all) {
        if cut < valid.len() {
            out.push(Variant {
                label: format!("truncated at {cut}"),
                bytes: valid[..cut].to_vec(),
            });
        }
    }
    let step = (valid.len() / 512).max(1);
    for pos in (0..valid.len()).step_by(step) {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut bytes = valid.to_vec();
            bytes[pos] ^= mask;
            out.push(Variant {
                label: format!("byte {pos} ^ {mask:#x}"),
                bytes,
            });
        }
    }
    let word_step = (valid.len() / 256).max(1) * 4;
    for pos in (0..valid.len().saturating_sub(3)).step_by(word_step) {
        for value in [
            0xffff_ffffu32,
            0x8000_0000,
            0x7fff_ffff,
            0x0100_0000,
            valid.len() as u32 + 1,
        ] {
            let mut bytes = valid.to_vec();
            bytes[pos..pos + 4].copy_from_slice(&value.to_le_bytes());
            out.push(Variant {
                label: format!("word {pos} = {value:#x}"),
                bytes,
            });
        }
    }
    out
}

/// The variant of `valid` labelled `label` (as listed by [`variants`] with
/// every truncation).
pub fn variant(valid: &[u8], label: &str) -> Vec<u8> {
    variants(valid, None)
        .into_iter()
        .find(|v| v.label == label)
        .unwrap_or_else(|| panic!("no variant {label:?}"))
        .bytes
}

/// Runs `read` on every variant: it must return (Ok or Err, never panic) and
/// its peak heap use must stay within `budget(len)` bytes for an input of
/// `len` bytes. Returns how many variants were rejected with an error.
pub fn assert_robust<T, E>(
    valid: &[u8],
    cuts: Option<&[usize]>,
    budget: impl Fn(usize) -> usize,
    read: impl Fn(&[u8]) -> Result<T, E>,
) -> usize {
    let mut rejected = 0;
    let vs = variants(valid, cuts);
    assert!(
        vs.len() > 100,
        "too few variants ({}) to mean anything",
        vs.len()
    );
    for v in &vs {
        let (peak, result) = peak_heap(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(&v.bytes).is_err()))
        });
        let is_err = result.unwrap_or_else(|_| panic!("reader panicked on variant: {}", v.label));
        rejected += is_err as usize;
        let limit = budget(v.bytes.len());
        assert!(
            peak <= limit,
            "variant {}: peak heap {peak} > budget {limit}",
            v.label
        );
    }
    rejected
}

/// An NRes entry to build (`attr3` 0).
pub fn entry<'p>(
    name: &str,
    type_id: u32,
    attr1: u32,
    attr2: u32,
    payload: &'p [u8],
) -> NewEntry<'p> {
    NewEntry {
        name: name.as_bytes().to_vec(),
        type_id,
        attr1,
        attr2,
        attr3: 0,
        payload,
    }
}

/// A unit part without children: `key` also as its description, attachment 0.
pub fn leaf_part(key: &str, class: PartClass) -> PartSpec {
    PartSpec {
        key: key.into(),
        description: key.into(),
        class,
        attachment: 0,
        children: vec![],
    }
}

/// The error `result` must hold, at `offset`, with a `format: problem` text
/// (as in the `Display` form) containing `needle`. Returns the error for
/// further checks (entry, file).
#[track_caller]
pub fn expect_error<T>(result: Result<T, FormatError>, offset: u64, needle: &str) -> FormatError {
    let Err(err) = result else {
        panic!("expected an error at offset {offset} with {needle:?}, got Ok");
    };
    let text = format!("{}: {}", err.format, err.problem);
    assert!(text.contains(needle), "{text:?} lacks {needle:?} ({err})");
    assert_eq!(err.offset, offset, "offset of: {err}");
    err
}

/// The error of a reader given the first `cut` bytes of a valid input: it
/// stops at an offset within those bytes, on a field or a counted run that
/// needs more than the `cut - offset` bytes left.
#[track_caller]
pub fn expect_cut_error<T>(result: Result<T, FormatError>, cut: usize) -> FormatError {
    let Err(err) = result else {
        panic!("cut {cut}: expected an error, got Ok");
    };
    let cut = cut as u64;
    assert!(err.offset <= cut, "cut {cut}: offset past the data: {err}");
    let left = cut - err.offset;
    match &err.problem {
        Problem::Truncated { needed, available } => {
            assert_eq!(*available, left, "cut {cut}: {err}");
            assert!(needed > available, "cut {cut}: {err}");
        }
        Problem::Invalid { expected, .. } => assert!(
            expected.ends_with(&format!("within the {left} remaining")),
            "cut {cut}: {err}"
        ),
        _ => panic!("cut {cut}: not a truncation: {err}"),
    }
    err
}

/// The entry of `err` as (index, name).
pub fn entry_of(err: &FormatError) -> Option<(usize, &str)> {
    err.entry.as_ref().map(|e| (e.index, e.name.as_str()))
}

/// A sky of two sections: a 900 s day with a version 3 keyframe (the sun
/// starting, one effect name) and a version 2 one, then a 1200 s day with
/// a version 1 keyframe; the clock starts at 01:30.
pub fn sky_sample() -> iron3d_formats::proto::ske::Sky {
    use iron3d_formats::proto::ske::{ClockTime, Keyframe, Section, Sky};
    let keyframe = |version: i32, hour, event, name: &[u8]| {
        let slots = (0..if version == 1 { 20 } else { 22 })
            .map(|i| [i as u8, 2 * i as u8, 3 * i as u8, 255])
            .collect();
        let mut k = Keyframe::new(
            ClockTime::new(0, hour, 15),
            (event, name),
            slots,
            [2.2, 2.0, 1.5, 0.0],
        );
        k.version = version;
        k.strings[4] = b"x".to_vec();
        if version == 3 {
            k.effects = vec![b"atm_rain1.wav".to_vec()];
        }
        k
    };
    let section = |minutes, keyframes| Section {
        version: 1,
        end_of_day: ClockTime::new(0, 23, 59),
        day_length: ClockTime::new(0, 0, minutes),
        keyframes,
    };
    Sky {
        version: 5,
        sections: vec![
            section(
                15,
                vec![keyframe(3, 1, 0, b"sun"), keyframe(2, 14, 1, b"sun")],
            ),
            section(20, vec![keyframe(1, 6, 0, b"moon")]),
        ],
        start: ClockTime::new(0, 1, 30),
        unread: 0,
        flag: 1,
    }
}

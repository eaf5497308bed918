//! The transposition table the full searches share: a fixed-size table of atomics, written
//! and read by every search thread without locks.
//!
//! A slot holds two words, `check = key ^ data` and `data`. Two threads writing one slot at
//! once can leave the check of one write beside the data of the other; a probe recomputes
//! `check ^ data` and accepts the slot only if that is its key, so a torn slot reads as a
//! miss, never as another position's value (the "lockless hashing" of chess engines).

use std::sync::atomic::{AtomicU64, Ordering};

/// The largest table `--hash` asks for (16 GiB): its pages are all touched when it is made.
pub const MAX_TABLE_MEGABYTES: usize = 16 * 1024;
/// Slots per cluster: the slots a key may occupy, scanned together.
const CLUSTER: usize = 4;
const SLOT_BYTES: usize = 16;
// The table's memory is sized and aligned in these units.
const _: () = assert!(std::mem::size_of::<Slot>() == SLOT_BYTES);

#[derive(Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The stored data if this slot holds `key`.
    #[inline]
    fn read(&self, key: u64) -> Option<u64> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data == key).then_some(data)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.check.load(Ordering::Relaxed) == 0 && self.data.load(Ordering::Relaxed) == 0
    }

    #[inline]
    fn write(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// A lock-free table from 64-bit position keys to 64-bit data.
///
/// Each search sees only its own entries: keys are salted with the search's generation, so
/// entries of an earlier search read as misses and are overwritten as slots are needed,
/// and starting a search costs nothing (clearing tens of MiB would cost more than a
/// shallow search takes).
pub struct TranspositionTable {
    slots: Slots,
    /// Clusters - 1 (a power of two minus one).
    cluster_mask: usize,
    /// Searches started so far.
    generation: AtomicU64,
    /// Mixed into every key: the current generation, scrambled.
    salt: AtomicU64,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (at least one cluster), rounded down to a power of
    /// two clusters.
    pub fn new(megabytes: usize) -> Self {
        let clusters = (megabytes * 1024 * 1024 / (CLUSTER * SLOT_BYTES)).max(1);
        let clusters = 1 << clusters.ilog2();
        TranspositionTable {
            slots: Slots::zeroed(clusters * CLUSTER),
            cluster_mask: clusters - 1,
            generation: AtomicU64::new(0),
            salt: AtomicU64::new(scramble(0)),
        }
    }

    /// Starts a new search: what earlier searches stored no longer matches any key.
    pub fn renew(&self) {
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        self.salt.store(scramble(generation), Ordering::Relaxed);
    }

    /// Bytes used by the slots.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// The key as this search stores it: salted, and moved off 0, which would read as an
    /// empty slot.
    #[inline]
    fn usable(&self, key: u64) -> u64 {
        (key ^ self.salt.load(Ordering::Relaxed)).max(1)
    }

    #[inline]
    fn cluster(&self, key: u64) -> &[Slot] {
        let start = (key as usize & self.cluster_mask) * CLUSTER;
        &self.slots[start..start + CLUSTER]
    }

    /// The data stored for `key`, if it is still in the table.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<u64> {
        let key = self.usable(key);
        self.cluster(key).iter().find_map(|slot| slot.read(key))
    }

    /// Starts loading the slots of `key` into the cache, for a probe that follows after
    /// other work.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let slot = &self.cluster(self.usable(key))[0];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints the cache; the address is a valid slot.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>((slot as *const Slot).cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Stores `data` for `key`: over the key's own slot, else in an empty one, else over a
    /// slot chosen by the key's high bits (spreading replacements over the cluster).
    #[inline]
    pub fn store(&self, key: u64, data: u64) {
        let key = self.usable(key);
        let cluster = self.cluster(key);
        let slot = cluster
            .iter()
            .find(|slot| slot.read(key).is_some())
            .or_else(|| cluster.iter().find(|slot| slot.is_empty()))
            .unwrap_or(&cluster[(key >> 62) as usize % CLUSTER]);
        slot.write(key, data);
    }

    /// A value such as an evaluation, stored as its bits.
    pub fn probe_f64(&self, key: u64) -> Option<f64> {
        self.probe(key).map(f64::from_bits)
    }

    pub fn store_f64(&self, key: u64, value: f64) {
        self.store(key, value.to_bits());
    }
}

/// A generation's salt: a bijective scramble (splitmix64's), so no two generations share a
/// salt, and the salts of consecutive ones look unrelated.
fn scramble(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The slots' memory. A probe is a random access into tens of MiB; with 4 KiB pages nearly
/// every one misses the TLB as well as the cache, so on Linux the table asks for huge pages
/// (2 MiB; granted where transparent huge pages are on, or on request as here).
struct Slots {
    #[cfg(target_os = "linux")]
    map: huge::Mapping,
    #[cfg(not(target_os = "linux"))]
    boxed: Box<[Slot]>,
}

impl Slots {
    #[cfg(target_os = "linux")]
    fn zeroed(len: usize) -> Self {
        Slots {
            map: huge::Mapping::zeroed(len),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn zeroed(len: usize) -> Self {
        Slots {
            boxed: (0..len).map(|_| Slot::default()).collect(),
        }
    }
}

impl std::ops::Deref for Slots {
    type Target = [Slot];

    #[cfg(target_os = "linux")]
    fn deref(&self) -> &[Slot] {
        self.map.slots()
    }

    #[cfg(not(target_os = "linux"))]
    fn deref(&self) -> &[Slot] {
        &self.boxed
    }
}

#[cfg(target_os = "linux")]
mod huge {
    use super::{Slot, SLOT_BYTES};
    use std::ptr::NonNull;

    const HUGE_PAGE: usize = 2 << 20;

    /// An anonymous mapping (zero-filled as it is first touched) with the slots at its first
    /// 2 MiB boundary, advised to use huge pages.
    pub struct Mapping {
        base: NonNull<libc::c_void>,
        bytes: usize,
        slots: NonNull<Slot>,
        len: usize,
    }

    // SAFETY: the mapping is owned by one table and only read through `&[Slot]`, whose
    // atomics are shared between threads by design.
    unsafe impl Send for Mapping {}
    unsafe impl Sync for Mapping {}

    impl Mapping {
        pub fn zeroed(len: usize) -> Self {
            let bytes = len * SLOT_BYTES + HUGE_PAGE;
            // SAFETY: a fresh private anonymous mapping, checked for failure below.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            assert!(
                base != libc::MAP_FAILED,
                "cannot map {bytes} bytes for the transposition table"
            );
            let offset = (base as usize).next_multiple_of(HUGE_PAGE) - base as usize;
            // SAFETY: `offset < HUGE_PAGE`, so the slots lie inside the mapping; an all-zero
            // slot is two zero atomics, the empty slot. The advice may be refused (huge pages
            // off): the table then works on small pages.
            let slots = unsafe {
                let start = base.cast::<u8>().add(offset);
                libc::madvise(start.cast(), len * SLOT_BYTES, libc::MADV_HUGEPAGE);
                Self::touch_pages(start, len * SLOT_BYTES);
                NonNull::new_unchecked(start.cast::<Slot>())
            };
            Mapping {
                base: NonNull::new(base).expect("mmap returned null"),
                bytes,
                slots,
                len,
            }
        }

        /// Writes a zero into every page of `bytes` from `start`, so that the kernel maps and
        /// clears them now, when the table is made, rather than in the first turn that
        /// searches (7.9 % of such a turn's time, on this virtual machine, for 64 MiB).
        ///
        /// # Safety
        /// `start..start + bytes` lies inside a writable mapping.
        unsafe fn touch_pages(start: *mut u8, bytes: usize) {
            const PAGE: usize = 4096;
            for offset in (0..bytes).step_by(PAGE) {
                // SAFETY: inside the mapping, by the caller's promise; the page is zero already.
                unsafe { std::ptr::write_volatile(start.add(offset), 0) };
            }
        }

        pub fn slots(&self) -> &[Slot] {
            // SAFETY: `len` slots from `slots` lie inside the live mapping (see `zeroed`).
            unsafe { std::slice::from_raw_parts(self.slots.as_ptr(), self.len) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping made in `zeroed`, no longer borrowed.
            unsafe {
                libc::munmap(self.base.as_ptr(), self.bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_key_is_found_and_others_are_not() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1 << 20);
        tt.store(42, 7);
        tt.store_f64(43, -1.5);
        assert_eq!(tt.probe(42), Some(7));
        assert_eq!(tt.probe_f64(43), Some(-1.5));
        assert_eq!(tt.probe(44), None);
        tt.store(42, 9);
        assert_eq!(tt.probe(42), Some(9), "a key keeps one slot");
        tt.store(0, 5);
        assert_eq!(tt.probe(0), Some(5), "key 0 is usable");
        tt.store(77, 0);
        assert_eq!(tt.probe(77), Some(0), "data 0 is a value");
    }

    #[test]
    fn a_full_cluster_replaces_one_slot_and_keeps_the_others() {
        let tt = TranspositionTable::new(0);
        let keys: Vec<u64> = (1..=5).map(|k| k << 40).collect();
        for &key in &keys {
            tt.store(key, key + 1);
        }
        let found = keys.iter().filter(|&&k| tt.probe(k) == Some(k + 1)).count();
        assert_eq!(found, CLUSTER);
        assert_eq!(tt.probe(keys[4]), Some(keys[4] + 1), "the newest is kept");
    }

    #[test]
    fn a_new_search_finds_nothing_of_the_last_and_stores_its_own() {
        let tt = TranspositionTable::new(1);
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for k in 1..10_000u64 {
            tt.store(key(k), k);
        }
        tt.renew();
        assert!((1..10_000u64).all(|k| tt.probe(key(k)).is_none()));
        for k in 1..10_000u64 {
            tt.store(key(k), k + 1);
        }
        let found = (1..10_000u64).filter(|&k| tt.probe(key(k)) == Some(k + 1));
        assert!(found.count() > 9_000, "stale slots are taken over");
    }

    #[test]
    fn racing_writers_never_make_a_probe_return_another_keys_data() {
        // A tiny table so that threads fight over the same slots all the time.
        let tt = TranspositionTable::new(0);
        let value = |key: u64| key.rotate_left(17) ^ 0x5555;
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i * 4 + t) % 64 + 1;
                        tt.store(key, value(key));
                        let probe = (i * 7 + t) % 64 + 1;
                        if let Some(data) = tt.probe(probe) {
                            assert_eq!(data, value(probe), "key {probe}");
                        }
                    }
                });
            }
        });
    }
}

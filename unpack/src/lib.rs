//! Unpacks the wasm module the package embeds: an LZMA decoder.
//!
//! The package ships the tracker's module LZMA-compressed (15% smaller
//! than zopfli's gzip, so every page downloads about 9 KB less); no
//! engine decodes LZMA natively, and in JS the decoder ran 20 to 40 times
//! slower than the host's gunzip on a cold page. So this crate, built for
//! wasm32 on its own (about 4 KB), decodes it, and the loader compiles
//! the result. The input is the package's own, checked when it is built
//! (the build decodes it through this module and compares), never data
//! from a stream; corrupt input is still refused, not trusted.
//!
//! The format is what `xz --format=lzma` writes: a 13-byte header (the
//! literal and position parameters, the dictionary size, the size), then
//! the range-coded stream. The output is one buffer of known size, so the
//! dictionary is the output itself.
//!
//! What the LZMA stream holds is the module's split form: its code section
//! with the opcodes and each kind of operand apart, which LZMA compresses
//! better; [`code::join`] puts it back together.
//!
//! ```
//! use agui_tool_calls_unpack::{decode, probabilities};
//!
//! // "aaaa", as `xz --format=lzma` writes it.
//! let input = [
//!     0x5d, 0, 0, 0x80, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
//!     0, 0x30, 0xe8, 0xbd, 0xff, 0xff, 0xff, 0xff, 0xe0, 0, 0, 0,
//! ];
//! let mut out = [0u8; 4];
//! let mut probs = vec![0u16; probabilities(input[0]).unwrap()];
//! decode(&input, &mut out, &mut probs).unwrap();
//! assert_eq!(&out, b"aaaa");
//! ```
// std natively, for its tests; none in the module.
#![cfg_attr(target_arch = "wasm32", no_std)]

pub mod code;

// Where each group of probabilities starts in the one table.
const IS_MATCH: usize = 0;
const IS_REP: usize = 192;
const IS_REP_G0: usize = 204;
const IS_REP_G1: usize = 216;
const IS_REP_G2: usize = 228;
const IS_REP0_LONG: usize = 240;
const POS_SLOT: usize = 432;
const SPEC_POS: usize = 688;
const ALIGN: usize = 803;
const LEN: usize = 819;
const REP_LEN: usize = 1333;
const LITERAL: usize = 1847;

/// The input is not an LZMA stream of the given size.
#[derive(Debug, PartialEq, Eq)]
pub struct Corrupt;

/// How many probabilities `decode` needs for a stream whose header starts
/// with `props`; `None` for parameters it does not take: those the format
/// does not allow, and `lc + lp` over 4, which `xz` never writes (the
/// loader reserves memory for at most that many, 14,135).
///
/// ```
/// use agui_tool_calls_unpack::probabilities;
///
/// assert_eq!(probabilities(0x5d), Some(1847 + 0x300 * 8)); // lc 3, lp 0, pb 2
/// assert_eq!(probabilities(4 + 9 * 1), None); // lc 4, lp 1
/// ```
#[must_use]
pub fn probabilities(props: u8) -> Option<usize> {
    // `props / 45`, the position bits, is at most 4 below 225.
    let (lc, lp) = (props % 9, props / 9 % 5);
    (props < 225 && lc + lp <= 4).then(|| LITERAL + (0x300 << (lc + lp)))
}

/// Decodes the LZMA stream `input` into `out`, which it fills exactly,
/// using `probs` (at least [`probabilities`] long) as its model.
///
/// # Errors
///
/// [`Corrupt`] when `input` is not an LZMA stream of `out.len()` bytes
/// (cut, damaged, or with parameters the format does not allow), or
/// `probs` is too short for its parameters.
///
/// ```
/// # use agui_tool_calls_unpack::{decode, Corrupt};
/// let mut out = [0u8; 4];
/// assert_eq!(decode(&[0u8; 3], &mut out, &mut [0u16; 8]), Err(Corrupt));
/// ```
pub fn decode(input: &[u8], out: &mut [u8], probs: &mut [u16]) -> Result<(), Corrupt> {
    let header = *input.first().ok_or(Corrupt)?;
    let needed = probabilities(header).ok_or(Corrupt)?;
    let probs = probs.get_mut(..needed).ok_or(Corrupt)?;
    probs.fill(1024);
    let (lc, lp_mask, pb_mask) = (
        u32::from(header % 9),
        (1usize << (header / 9 % 5)) - 1,
        (1usize << (header / 45)) - 1,
    );
    // The header, then the range coder's first byte, always 0.
    let mut rc = Coder::new(input.get(14..).ok_or(Corrupt)?, probs)?;
    let size = out.len();
    let (mut pos, mut state) = (0usize, 0usize);
    let mut reps = [0usize; 4];
    while pos < size {
        let pos_state = pos & pb_mask;
        if rc.bit(IS_MATCH + (state << 4) + pos_state) == 0 {
            let prev = if pos > 0 { out[pos - 1] } else { 0 };
            let base =
                LITERAL + 0x300 * (((pos & lp_mask) << lc) + (usize::from(prev) >> (8 - lc)));
            let mut symbol = 1usize;
            if state >= 7 {
                // After a match, the byte the match would have given guides
                // the literal's bits until the first that differs from it.
                let mut matched = usize::from(*out.get(back(pos, reps[0])?).ok_or(Corrupt)?);
                while symbol < 0x100 {
                    let match_bit = (matched >> 7) & 1;
                    matched <<= 1;
                    let bit = rc.bit(base + ((1 + match_bit) << 8) + symbol);
                    symbol = (symbol << 1) | bit;
                    if match_bit != bit {
                        break;
                    }
                }
            }
            while symbol < 0x100 {
                symbol = (symbol << 1) | rc.bit(base + symbol);
            }
            out[pos] = symbol as u8;
            pos += 1;
            state = if state < 4 {
                0
            } else if state < 10 {
                state - 3
            } else {
                state - 6
            };
            continue;
        }
        let len = if rc.bit(IS_REP + state) == 0 {
            reps.copy_within(0..3, 1);
            let len = rc.length(LEN, pos_state);
            state = if state < 7 { 7 } else { 10 };
            reps[0] = rc.distance(len)?;
            len
        } else {
            if rc.bit(IS_REP_G0 + state) == 0 {
                if rc.bit(IS_REP0_LONG + (state << 4) + pos_state) == 0 {
                    state = if state < 7 { 9 } else { 11 };
                    out[pos] = *out.get(back(pos, reps[0])?).ok_or(Corrupt)?;
                    pos += 1;
                    continue;
                }
            } else {
                let which = if rc.bit(IS_REP_G1 + state) == 0 {
                    1
                } else if rc.bit(IS_REP_G2 + state) == 0 {
                    2
                } else {
                    3
                };
                // The distance used moves to the front. A loop, not
                // `rotate_right`: that generic rotation was 0.3 KB of the module.
                let dist = reps[which];
                for i in (1..=which).rev() {
                    reps[i] = reps[i - 1];
                }
                reps[0] = dist;
            }
            state = if state < 7 { 8 } else { 11 };
            rc.length(REP_LEN, pos_state)
        };
        let from = back(pos, reps[0])?;
        let end = size.min(pos + len + 2);
        // Byte by byte: a match may overlap the bytes it writes.
        for i in pos..end {
            out[i] = out[i - pos + from];
        }
        pos = end;
    }
    if rc.at > rc.input.len() {
        return Err(Corrupt);
    }
    Ok(())
}

/// Where a match at distance `rep` (0: the byte just written) starts.
fn back(pos: usize, rep: usize) -> Result<usize, Corrupt> {
    pos.checked_sub(rep + 1).ok_or(Corrupt)
}

/// The range decoder and its adaptive probabilities.
struct Coder<'a> {
    input: &'a [u8],
    at: usize,
    range: u32,
    code: u32,
    probs: &'a mut [u16],
}

impl<'a> Coder<'a> {
    fn new(input: &'a [u8], probs: &'a mut [u16]) -> Result<Self, Corrupt> {
        let first: [u8; 4] = input
            .get(..4)
            .ok_or(Corrupt)?
            .try_into()
            .map_err(|_| Corrupt)?;
        Ok(Coder {
            input,
            at: 4,
            range: u32::MAX,
            code: u32::from_be_bytes(first),
            probs,
        })
    }

    /// Takes the next input byte once the range is below 2^24; past the
    /// end, 0 (`decode` refuses a stream it read past the end of).
    fn normalize(&mut self) {
        if self.range < 1 << 24 {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.input.get(self.at).copied().unwrap_or(0));
            self.at += 1;
        }
    }

    fn bit(&mut self, i: usize) -> usize {
        let p = self.probs[i];
        let bound = (self.range >> 11) * u32::from(p);
        let bit = if self.code < bound {
            self.range = bound;
            self.probs[i] = p + ((2048 - p) >> 5);
            0
        } else {
            self.range -= bound;
            self.code -= bound;
            self.probs[i] = p - (p >> 5);
            1
        };
        self.normalize();
        bit
    }

    /// A value of `bits` bits, high bit first.
    fn tree(&mut self, bits: u32, base: usize) -> usize {
        let mut m = 1;
        for _ in 0..bits {
            m = (m << 1) | self.bit(base + m);
        }
        m - (1 << bits)
    }

    /// A value of `bits` bits, low bit first.
    fn reverse(&mut self, bits: u32, base: usize) -> usize {
        let (mut m, mut value) = (1, 0);
        for i in 0..bits {
            let bit = self.bit(base + m);
            m = (m << 1) | bit;
            value |= bit << i;
        }
        value
    }

    /// `bits` bits of even probability.
    fn direct(&mut self, bits: u32) -> usize {
        let mut value = 0;
        for _ in 0..bits {
            self.range >>= 1;
            let bit = usize::from(self.code >= self.range);
            if bit == 1 {
                self.code -= self.range;
            }
            value = (value << 1) | bit;
            self.normalize();
        }
        value
    }

    /// A match length, less the minimum of 2.
    fn length(&mut self, base: usize, pos_state: usize) -> usize {
        if self.bit(base) == 0 {
            self.tree(3, base + 2 + pos_state * 8)
        } else if self.bit(base + 1) == 0 {
            8 + self.tree(3, base + 130 + pos_state * 8)
        } else {
            16 + self.tree(8, base + 258)
        }
    }

    /// A new match distance (0: the byte just written).
    fn distance(&mut self, len: usize) -> Result<usize, Corrupt> {
        let slot = self.tree(6, POS_SLOT + len.min(3) * 64);
        if slot < 4 {
            return Ok(slot);
        }
        let bits = (slot as u32 >> 1) - 1;
        // Distances of 2^31 and more (the end marker among them, which
        // comes after the last byte): none in a buffer this module decodes.
        if bits > 29 {
            return Err(Corrupt);
        }
        let dist = (2 | (slot & 1)) << bits;
        if slot < 14 {
            return Ok(dist + self.reverse(bits, SPEC_POS + dist - slot));
        }
        Ok(dist + (self.direct(bits - 4) << 4) + self.reverse(4, ALIGN))
    }
}

/// The module's entry point: decodes the `input_len` bytes at `at` (the
/// LZMA stream of a module's split form, see [`code`]) into the
/// `output_len` bytes after them, with the split form after those and the
/// probabilities after that (from the next even address). Returns 0, or 1
/// when the input is corrupt.
#[cfg(target_arch = "wasm32")]
// The export's name, which the loader calls; no other symbol has it.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn unpack(at: usize, input_len: usize, output_len: usize) -> u32 {
    let output = at + input_len;
    let split = output + output_len;
    let split_len = output_len + code::HEADER;
    let probs = (split + split_len + 1) & !1;
    let Some(count) = memory(at, 1).first().copied().and_then(probabilities) else {
        return 1;
    };
    let input = memory(at, input_len);
    let split = memory(split, split_len);
    // SAFETY: as for `memory` below; the address is even, as a `u16` needs.
    #[allow(unsafe_code)]
    let probs = unsafe { core::slice::from_raw_parts_mut(probs as *mut u16, count) };
    let joined =
        decode(input, split, probs).and_then(|()| code::join(split, memory(output, output_len)));
    u32::from(joined.is_err())
}

/// `len` bytes of the module's memory from `at`.
#[cfg(target_arch = "wasm32")]
fn memory(at: usize, len: usize) -> &'static mut [u8] {
    // SAFETY: the loader (js/wasm-embedded.js) grows the memory to hold the
    // region it passes, starting past everything this module uses (it has
    // no allocator and no data past its stack), and reads the output only
    // after `unpack` returns: the four parts are disjoint and nothing else
    // reaches them while the slices live.
    #[allow(unsafe_code)]
    unsafe {
        core::slice::from_raw_parts_mut(at as *mut u8, len)
    }
}

#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

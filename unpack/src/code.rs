//! Puts a wasm module's code section back together.
//!
//! LZMA compresses wasm code better with its parts apart: the build
//! (`scripts/wasm-split.mjs`) writes the opcodes in one stream and each
//! kind of operand (local indices, memory offsets, constants...) in a
//! stream of its own, so that each stream repeats itself more than the
//! interleaved code did (the module's LZMA stream 8% smaller,
//! `docs/size.md`). This walks the opcodes and takes each operand from its
//! stream, which gives back the module byte for byte.
//!
//! The split form: a header of `HEADER` bytes (the length of the bytes
//! before the code section's contents, then each stream's length, as
//! little-endian `u32`s), those bytes, the streams in the order of their
//! indices below, then the bytes after the code section.
//!
//! ```
//! use agui_tool_calls_unpack::code::{join, HEADER};
//!
//! // After an 8-byte preamble, a code section of one function:
//! // no locals, `i32.const 5`, `end`.
//! let mut split = vec![0u8; HEADER];
//! split[0] = 8; // the preamble's length
//! split[4] = 2; // the sizes: the function count, then its size
//! split[8] = 1; // the locals: their count
//! split[44] = 1; // the `i32.const` values
//! split[60] = 2; // the opcodes
//! split.extend_from_slice(b"preamble");
//! split.extend_from_slice(&[1, 4, 0, 5, 0x41, 0x0b]);
//! let mut out = [0u8; 8 + 6];
//! join(&split, &mut out).unwrap();
//! assert_eq!(&out[8..], &[1, 4, 0, 0x41, 5, 0x0b]);
//! ```

use crate::Corrupt;

/// How many streams the code is split into.
pub const STREAMS: usize = 15;
/// The header's length: the preamble's length, then each stream's.
pub const HEADER: usize = 4 * (1 + STREAMS);

// The streams, in their order in the split form. The build measured this
// grouping smallest: a memory access's alignment and a call's function
// index follow their opcode closely, so they stay with the opcodes; the
// locals read and written, the loads' and the stores' offsets, and the
// depths of `br` and `br_if` each differ enough to be apart.
/// The function count, then each function's size.
const SIZE: usize = 0;
/// Each function's local declarations.
const LOCALS: usize = 1;
/// Block types.
const BLOCK: usize = 2;
/// Branch depths of `br` and `br_table`.
const BRANCH: usize = 3;
/// Branch depths of `br_if`.
const BRANCH_IF: usize = 4;
/// `local.set` and `local.tee` indices.
const SET: usize = 5;
/// `local.get` indices.
const LOCAL: usize = 6;
/// `global.get`, `global.set` indices.
const GLOBAL: usize = 7;
/// Memory offsets of stores.
const STORE: usize = 8;
/// Memory offsets of loads.
const OFFSET: usize = 9;
/// `i32.const` values.
const I32: usize = 10;
/// `i64.const` values.
const I64: usize = 11;
/// `f32.const` and `f64.const` bytes.
const FLOAT: usize = 12;
/// Every other operand (tables, types of `select`, bulk memory...).
const MISC: usize = 13;
/// Opcodes, with alignments, called functions and `0xfc` sub-opcodes.
const OP: usize = 14;

/// Writes the module that `split` (see the module's docs) is the split
/// form of into `out`, which it must fill exactly.
///
/// # Errors
///
/// [`Corrupt`] when `split` is not the split form of a module of
/// `out.len()` bytes: a stream runs out, a function's code does not end
/// where its size says, or bytes are left over.
pub fn join(split: &[u8], out: &mut [u8]) -> Result<(), Corrupt> {
    let word = |i: usize| -> Result<usize, Corrupt> {
        let bytes = split.get(4 * i..4 * i + 4).ok_or(Corrupt)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize)
    };
    let mut at = HEADER.checked_add(word(0)?).ok_or(Corrupt)?;
    let mut w = Writer { out, len: 0 };
    w.put(split.get(HEADER..at).ok_or(Corrupt)?)?;
    let mut s = Streams {
        split,
        pos: [0; STREAMS],
        end: [0; STREAMS],
    };
    for i in 0..STREAMS {
        s.pos[i] = at;
        at = at.checked_add(word(1 + i)?).ok_or(Corrupt)?;
        s.end[i] = at;
    }
    let suffix = split.get(at..).ok_or(Corrupt)?;
    for _ in 0..s.leb(SIZE, &mut w)? {
        s.function(&mut w)?;
    }
    w.put(suffix)?;
    // Every byte of `split` past its header written once, and `out` full:
    // no stream has bytes left.
    if w.len + HEADER != split.len() || w.len != w.out.len() {
        return Err(Corrupt);
    }
    Ok(())
}

/// The output, filled from the start.
struct Writer<'a> {
    out: &'a mut [u8],
    len: usize,
}

impl Writer<'_> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Corrupt> {
        let end = self.len + bytes.len();
        self.out
            .get_mut(self.len..end)
            .ok_or(Corrupt)?
            .copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

/// Where each stream is read from, and where it ends.
struct Streams<'a> {
    split: &'a [u8],
    pos: [usize; STREAMS],
    end: [usize; STREAMS],
}

impl Streams<'_> {
    /// Copies `n` bytes of stream `s`.
    fn copy(&mut self, s: usize, n: usize, w: &mut Writer<'_>) -> Result<(), Corrupt> {
        for _ in 0..n {
            self.byte(s, w)?;
        }
        Ok(())
    }

    /// Copies the next byte of stream `s`; returns it. One byte at a time:
    /// an operand is a few bytes, and reading a number's bytes once (not
    /// scanning then copying them) cut `join`'s time by a third, natively.
    fn byte(&mut self, s: usize, w: &mut Writer<'_>) -> Result<u8, Corrupt> {
        let at = self.pos[s];
        let byte = *self
            .split
            .get(at)
            .filter(|_| at < self.end[s])
            .ok_or(Corrupt)?;
        *w.out.get_mut(w.len).ok_or(Corrupt)? = byte;
        w.len += 1;
        self.pos[s] = at + 1;
        Ok(byte)
    }

    /// Copies one LEB128 number of stream `s`; returns it as unsigned
    /// (a large one saturated: only counts and sizes are read).
    fn leb(&mut self, s: usize, w: &mut Writer<'_>) -> Result<u64, Corrupt> {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let byte = self.byte(s, w)?;
            if shift < 64 {
                value |= u64::from(byte & 0x7f) << shift;
            }
            if byte < 0x80 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// Copies one function's code: its size, its locals, its instructions.
    /// Kept out of `join`: the module measured 0.1 KB smaller so.
    #[inline(never)]
    fn function(&mut self, w: &mut Writer<'_>) -> Result<(), Corrupt> {
        let size = self.leb(SIZE, w)?;
        let end = w
            .len
            .checked_add(usize::try_from(size).map_err(|_| Corrupt)?)
            .ok_or(Corrupt)?;
        for _ in 0..self.leb(LOCALS, w)? {
            self.leb(LOCALS, w)?;
            self.byte(LOCALS, w)?;
        }
        while w.len < end {
            self.instruction(w)?;
        }
        if w.len == end {
            Ok(())
        } else {
            Err(Corrupt)
        }
    }

    /// Copies one instruction: its opcode, then each operand from its stream.
    fn instruction(&mut self, w: &mut Writer<'_>) -> Result<(), Corrupt> {
        let op = self.byte(OP, w)?;
        let [first, second] = if op == 0xfc {
            operands(u8::try_from(self.leb(OP, w)?).unwrap_or(0))
        } else {
            OPERANDS[usize::from(op)]
        };
        if first != 0 {
            self.operand(first, w)?;
        }
        if second != 0 {
            self.operand(second, w)?;
        }
        Ok(())
    }

    /// Copies one operand (see `operands`), if any.
    fn operand(&mut self, code: u8, w: &mut Writer<'_>) -> Result<(), Corrupt> {
        let s = usize::from(code & 15);
        match code >> 4 {
            0 => Ok(()),
            LEB => self.leb(s, w).map(|_| ()),
            TARGETS => {
                for _ in 0..=self.leb(s, w)? {
                    self.leb(s, w)?;
                }
                Ok(())
            }
            TYPES => {
                let n = self.leb(s, w)?;
                self.copy(s, usize::try_from(n).map_err(|_| Corrupt)?, w)
            }
            bytes => self.copy(s, usize::from(bytes), w),
        }
    }
}

// An operand: what it is (the high four bits) and its stream (the low
// four). Fixed-size ones are that many bytes (1, 2, 4 or 8).
/// A LEB128 number.
const LEB: u8 = 15;
/// `br_table`'s targets: a count, then one more LEB128 number than it says.
const TARGETS: u8 = 14;
/// `select`'s types: a count, then that many bytes.
const TYPES: u8 = 13;

const fn leb(s: usize) -> u8 {
    (LEB << 4) | s as u8
}

const fn bytes(n: u8, s: usize) -> u8 {
    (n << 4) | s as u8
}

/// The instructions with operands, by runs of opcodes: the first and the
/// last opcode, then their operands (at most two; 0 for none).
const RUNS: [[u8; 4]; 20] = [
    [0x02, 0x04, leb(BLOCK), 0],
    [0x0c, 0x0c, leb(BRANCH), 0],
    [0x0d, 0x0d, leb(BRANCH_IF), 0],
    [0x0e, 0x0e, (TARGETS << 4) | BRANCH as u8, 0],
    [0x10, 0x10, leb(OP), 0],
    [0x11, 0x11, leb(OP), leb(MISC)],
    [0x1c, 0x1c, (TYPES << 4) | MISC as u8, 0],
    [0x20, 0x20, leb(LOCAL), 0],
    [0x21, 0x22, leb(SET), 0],
    [0x23, 0x24, leb(GLOBAL), 0],
    [0x25, 0x26, leb(MISC), 0],
    [0x28, 0x35, leb(OP), leb(OFFSET)],
    [0x36, 0x3e, leb(OP), leb(STORE)],
    [0x3f, 0x40, bytes(1, MISC), 0],
    [0x41, 0x41, leb(I32), 0],
    [0x42, 0x42, leb(I64), 0],
    [0x43, 0x43, bytes(4, FLOAT), 0],
    [0x44, 0x44, bytes(8, FLOAT), 0],
    [0xd0, 0xd0, bytes(1, MISC), 0],
    [0xd2, 0xd2, leb(OP), 0],
];

/// The operands of each opcode (but `0xfc`'s), from `RUNS`: one lookup
/// per instruction rather than a search of the runs, for 512 bytes of
/// data, mostly zeros (`docs/size.md` has the decoder's time).
static OPERANDS: [[u8; 2]; 256] = {
    let mut table = [[0u8; 2]; 256];
    let mut run = 0;
    while run < RUNS.len() {
        let [first, last, a, b] = RUNS[run];
        let mut op = first as usize;
        while op <= last as usize {
            table[op] = [a, b];
            op += 1;
        }
        run += 1;
    }
    table
};

/// The operands of the instruction after `0xfc` of sub-opcode `sub`: bulk
/// memory and tables.
fn operands(sub: u8) -> [u8; 2] {
    match sub {
        8 => [leb(MISC), bytes(1, MISC)],
        9 | 13 | 15..=17 => [leb(MISC), 0],
        10 => [bytes(2, MISC), 0],
        11 => [bytes(1, MISC), 0],
        12 | 14 => [leb(MISC), leb(MISC)],
        _ => [0, 0],
    }
}

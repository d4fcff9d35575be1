//! Byte searches eight bytes at a time, in a `u64` (no SIMD in the wasm
//! module, no `unsafe`): a hot loop over event text tests a word for the
//! bytes it stops at, then finds the byte within it one by one.

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = ONES << 7;

/// The eight bytes at `at` as one little-endian word, if there are eight.
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let word = bytes.get(at..at.checked_add(8)?)?;
    <[u8; 8]>::try_from(word).ok().map(u64::from_le_bytes)
}

/// Whether any byte of `word` is `byte`: the bytes equal to it become
/// zero, and a zero byte is one whose high bit survives subtracting one
/// from each byte and masking out the bytes that had it set.
pub(crate) fn has_byte(word: u64, byte: u8) -> bool {
    has_less(word ^ (ONES * u64::from(byte)), 1)
}

/// Whether any byte of `word` is less than `n` (at most 128).
fn has_less(word: u64, n: u8) -> bool {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_tested_for_each_byte_at_each_place() {
        // Every byte value at every place, among bytes on either side of
        // the value looked for.
        for place in 0..8 {
            for value in 0..=255u8 {
                for other in [
                    0u8, 0x1f, 0x20, 0x21, 0x22, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xff,
                ] {
                    let mut bytes = [other; 8];
                    bytes[place] = value;
                    let word = u64::from_le_bytes(bytes);
                    for probe in [b'"', b'\\', b'\n', b'\r'] {
                        assert_eq!(has_byte(word, probe), bytes.contains(&probe));
                    }
                    assert_eq!(has_less(word, 0x20), bytes.iter().any(|&b| b < 0x20));
                    assert_eq!(has_less(word, 1), bytes.contains(&0));
                }
            }
        }
        assert_eq!(
            word_at(b"12345678", 0),
            Some(u64::from_le_bytes(*b"12345678"))
        );
        assert_eq!(word_at(b"12345678", 1), None);
        assert_eq!(word_at(b"", usize::MAX), None);
    }
}

//! `code::join` on split forms that are not right: refused, never a panic
//! (a trap, in the module). Split forms of real modules are joined by
//! `tests/js/wasm-split.test.mjs`, through the encoder the build uses, and
//! by the build itself.

use agui_tool_calls_unpack::code::{join, HEADER, STREAMS};
use agui_tool_calls_unpack::Corrupt;

/// A preamble, then a code section of two functions (`i32.const 5`, and
/// `local.get 0` after one local declaration), then a trailer.
fn example() -> (Vec<u8>, Vec<u8>) {
    let module = [
        b"preamble".as_slice(),
        &[2, 4, 0, 0x41, 5, 0x0b, 6, 1, 1, 0x7f, 0x20, 0, 0x0b],
        b"trailer",
    ]
    .concat();
    let mut lengths = [0u32; STREAMS];
    lengths[0] = 3; // sizes: the count, then each function's
    lengths[1] = 4; // locals: each function's declarations
    lengths[6] = 1; // `local.get` indices
    lengths[10] = 1; // i32 constants
    lengths[14] = 4; // opcodes
    let mut split: Vec<u8> = 8u32.to_le_bytes().to_vec();
    for length in lengths {
        split.extend_from_slice(&length.to_le_bytes());
    }
    assert_eq!(split.len(), HEADER);
    split.extend_from_slice(b"preamble");
    split.extend_from_slice(&[2, 4, 6]);
    split.extend_from_slice(&[0, 1, 1, 0x7f]);
    split.push(0);
    split.push(5);
    split.extend_from_slice(&[0x41, 0x0b, 0x20, 0x0b]);
    split.extend_from_slice(b"trailer");
    (split, module)
}

fn joined(split: &[u8], size: usize) -> Result<Vec<u8>, Corrupt> {
    let mut out = vec![0; size];
    join(split, &mut out).map(|()| out)
}

#[test]
fn the_example_joins() {
    let (split, module) = example();
    assert_eq!(joined(&split, module.len()), Ok(module));
}

#[test]
fn every_cut_of_a_split_form_is_refused() {
    let (split, module) = example();
    for len in 0..split.len() {
        assert_eq!(
            joined(&split[..len], module.len()),
            Err(Corrupt),
            "cut at {len}"
        );
    }
}

#[test]
fn an_output_of_another_size_is_refused() {
    let (split, module) = example();
    for size in [0, module.len() - 1, module.len() + 1] {
        assert_eq!(joined(&split, size), Err(Corrupt), "size {size}");
    }
}

#[test]
fn no_length_in_the_header_makes_it_panic() {
    let (split, module) = example();
    for word in 0..=STREAMS {
        for value in [0, 1, 2, 7, 100, u32::MAX / 2, u32::MAX] {
            let mut bad = split.clone();
            bad[4 * word..4 * word + 4].copy_from_slice(&value.to_le_bytes());
            // Only the example's own length joins.
            let original = u32::from_le_bytes(split[4 * word..4 * word + 4].try_into().unwrap());
            if value != original {
                assert_eq!(
                    joined(&bad, module.len()),
                    Err(Corrupt),
                    "word {word} = {value}"
                );
            }
        }
    }
}

#[test]
fn no_byte_of_the_streams_makes_it_panic() {
    let (split, module) = example();
    for at in HEADER + 8..split.len() - 7 {
        for value in [0, 0x7f, 0x80, 0xfc, 0xff] {
            let mut bad = split.clone();
            bad[at] = value;
            // Whatever it gives, it gives without a panic and fills the output exactly or refuses.
            if let Ok(out) = joined(&bad, module.len()) {
                assert_eq!(out.len(), module.len());
            }
        }
    }
}

//! The decoder against `xz --format=lzma` (the encoder the build uses),
//! over data of every kind the module could be, with every parameter the
//! format allows the encoder to pick.

use agui_tool_calls_unpack::{decode, probabilities, Corrupt};
use std::io::Write;
use std::process::{Command, Stdio};

fn xz(data: &[u8], options: &str) -> Vec<u8> {
    let mut child = Command::new("xz")
        .args(["--format=lzma", &format!("--lzma1={options}"), "--stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("xz (installed by npm run setup)");
    let mut stdin = child.stdin.take().unwrap();
    let input = data.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    output.stdout
}

fn unpacked(packed: &[u8], size: usize) -> Result<Vec<u8>, Corrupt> {
    let mut out = vec![0; size];
    let mut probs = vec![0; probabilities(packed[0]).ok_or(Corrupt)?];
    decode(packed, &mut out, &mut probs).map(|()| out)
}

/// Bytes from a fixed xorshift generator: noise, then text-like runs that
/// repeat at many distances (short, long, past 2^14, reused).
fn samples() -> Vec<Vec<u8>> {
    let mut x = 0x9e37_79b9_u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let noise: Vec<u8> = (0..70_000).map(|_| next() as u8).collect();
    let mut mixed = Vec::new();
    while mixed.len() < 400_000 {
        let len = (next() % 300) as usize + 1;
        if mixed.len() > 1000 && next() % 3 > 0 {
            let from = mixed.len() - 1 - (next() as usize % mixed.len().min(200_000));
            for i in 0..len {
                mixed.push(mixed[from + i % (mixed.len() - from)]);
            }
        } else {
            mixed.extend(
                (0..len).map(|_| b"{\"toolCallId\":, delta TOOL_CALL_ARGS"[next() as usize % 36]),
            );
        }
    }
    vec![
        Vec::new(),
        b"a".to_vec(),
        vec![b'a'; 5000],
        noise,
        mixed,
        include_bytes!("../src/lib.rs").to_vec(),
    ]
}

#[test]
fn decodes_what_xz_encodes_with_every_parameter() {
    for data in samples() {
        for options in [
            "preset=9e",
            "preset=9e,lc=3,lp=0,pb=0",
            "preset=1,lc=0,lp=4,pb=4",
            "preset=6,lc=4,lp=0,pb=1",
            "preset=6,lc=1,lp=2,pb=3",
        ] {
            let packed = xz(&data, options);
            assert_eq!(
                unpacked(&packed, data.len()).as_deref(),
                Ok(&data[..]),
                "{options}, {} bytes",
                data.len()
            );
        }
    }
}

#[test]
fn refuses_a_cut_or_damaged_stream_without_panicking() {
    let data = &samples()[4];
    let packed = xz(data, "preset=9e");
    // Cut: the decoder reads past the end, and says so.
    assert_eq!(
        unpacked(&packed[..packed.len() / 2], data.len()),
        Err(Corrupt)
    );
    // Damaged: whatever comes out, no panic; most damage is caught.
    let mut caught = 0;
    for at in (20..packed.len()).step_by(997) {
        let mut damaged = packed.clone();
        damaged[at] ^= 0x5a;
        match unpacked(&damaged, data.len()) {
            Err(Corrupt) => caught += 1,
            Ok(out) => assert_ne!(out, *data, "damage at {at} changed nothing"),
        }
    }
    assert!(caught > 0);
    // Literal and position bits over 4 together: more probabilities than
    // the loader reserves memory for.
    assert_eq!(
        unpacked(
            &[4 + 9 * 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            1
        ),
        Err(Corrupt)
    );
    // A header the format does not allow.
    assert_eq!(
        unpacked(&[225, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1),
        Err(Corrupt)
    );
    // A probability table too small for the header's parameters.
    assert_eq!(
        decode(&packed, &mut vec![0; data.len()], &mut [0; 100]),
        Err(Corrupt)
    );
}

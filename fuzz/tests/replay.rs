//! The fuzz targets on stable Rust, without libFuzzer (`npm test`): every
//! input under `regressions/<target>/` (what fuzz runs found, kept once
//! fixed), the corpus entries kept under `seeds/<target>/`, and inputs a
//! seeded generator makes from them. A target's check that the
//! code has outgrown fails here, and not only in the next fuzz run.

use agui_tool_calls_fuzz::targets;
use std::path::{Path, PathBuf};

/// A target, and how many generated inputs it gets (its cost per input
/// differs by orders of magnitude).
struct Target {
    name: &'static str,
    run: fn(&[u8]),
    generated: usize,
}

const TARGETS: [Target; 7] = [
    Target {
        name: "tracker_events",
        run: targets::tracker_events::run,
        generated: 6000,
    },
    Target {
        name: "sse_split",
        run: targets::sse_split::run,
        generated: 1500,
    },
    Target {
        name: "args_reader",
        run: targets::args_reader::run,
        generated: 6000,
    },
    Target {
        name: "schema",
        run: targets::schema::run,
        generated: 300,
    },
    Target {
        name: "json_syntax",
        run: targets::json_syntax::run,
        generated: 10000,
    },
    Target {
        name: "plain_args",
        run: targets::plain_args::run,
        generated: 10000,
    },
    Target {
        name: "saved_load",
        run: targets::saved_load::run,
        generated: 1000,
    },
];

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir`, sorted; none when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// Kept corpus entries of `target` (`fuzz/seeds/<target>/`): a sample of
/// what a fuzz run's corpus held, the seeds `npm run fuzz` writes from the
/// example streams among them, each in the target's input format.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let out: Vec<Vec<u8>> = files(&fuzz_dir().join("seeds").join(target))
        .into_iter()
        .map(|path| std::fs::read(path).unwrap())
        .collect();
    assert!(!out.is_empty(), "{target} keeps seeds");
    out
}

/// xorshift64*: the same inputs on every run.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Random bytes, or a seed with a few bytes changed, cut or repeated.
    fn input(&mut self, seeds: &[Vec<u8>]) -> Vec<u8> {
        if self.below(3) == 0 {
            let len = self.below(400);
            return (0..len).map(|_| self.next() as u8).collect();
        }
        let mut bytes = seeds[self.below(seeds.len())].clone();
        for _ in 0..=self.below(4) {
            let at = self.below(bytes.len() + 1);
            match self.below(4) {
                0 if at < bytes.len() => bytes[at] = self.next() as u8,
                1 => bytes.truncate(at),
                2 => {
                    let piece = bytes[at..].iter().take(16).copied().collect::<Vec<_>>();
                    bytes.splice(at..at, piece);
                }
                _ => bytes.insert(at, b"{}[]\",:\\0 "[self.below(10)]),
            }
        }
        bytes
    }
}

/// Runs `target` on `input`; a failure names the input.
fn replay(target: &Target, input: &[u8], from: &str) {
    let run = target.run;
    if std::panic::catch_unwind(|| run(input)).is_err() {
        panic!(
            "{} failed on {from}: {:?}",
            target.name,
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn every_target_passes_what_fuzz_runs_found_and_generated_inputs() {
    for (i, target) in TARGETS.iter().enumerate() {
        for path in files(&fuzz_dir().join("regressions").join(target.name)) {
            replay(
                target,
                &std::fs::read(&path).unwrap(),
                &path.display().to_string(),
            );
        }
        let seeds = seeds(target.name);
        for seed in &seeds {
            replay(target, seed, "a seed");
        }
        let mut generator = Generator(0x9e37_79b9_7f4a_7c15 ^ i as u64);
        for n in 0..target.generated {
            replay(
                target,
                &generator.input(&seeds),
                &format!("generated input {n}"),
            );
        }
    }
}

/// The fuzz runs' finds are kept: a regression directory per target that
/// has one, each file a raw input.
#[test]
fn regressions_are_kept_per_target() {
    let dir = fuzz_dir().join("regressions");
    for path in files(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            TARGETS.iter().any(|t| t.name == name),
            "{name} names no target"
        );
        assert!(!files(&path).is_empty(), "{name} is empty");
    }
    for target in ["tracker_events", "json_syntax"] {
        assert!(
            !files(&dir.join(target)).is_empty(),
            "{target} keeps its find"
        );
    }
}

//! A linear-time matcher for ECMAScript patterns that a stream supplies.
//!
//! ECMAScript engines backtrack: `^(a+)+$` against 29 `a` and a `!` tries
//! 2^29 ways. This one compiles the pattern to an NFA and runs all its
//! states at once (a Pike VM), so matching costs at most the text length
//! times the program size, whatever the pattern. Only whether a match
//! exists is asked, so which match a backtracker would pick does not
//! matter, and the verdict is the ECMAScript one (`u` flag) for every
//! pattern it compiles. What needs backtracking or tables it does not carry
//! is refused: lookaround, backreferences, Unicode property escapes
//! (`\p{…}`), lone surrogates. Invalid syntax is refused as with the `u`
//! flag.
//!
//! ```
//! use agui_tool_calls::schema::{LinearEngine, PatternEngine};
//!
//! let p = LinearEngine.compile("^(a+)+$").unwrap();
//! assert!(p.is_match("aaaa"));
//! assert!(!p.is_match(&format!("{}!", "a".repeat(10_000))));
//! assert!(LinearEngine.compile("(?=a)").is_err());
//! ```

use super::pattern::{Pattern, PatternEngine};

/// Compiles patterns for the linear-time matcher.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinearEngine;

impl PatternEngine for LinearEngine {
    fn compile(&self, source: &str) -> Result<Box<dyn Pattern>, String> {
        let mut parser = Parser {
            chars: source.chars().collect(),
            at: 0,
            depth: 0,
        };
        let node = parser.alternation()?;
        if parser.at < parser.chars.len() {
            return Err(parser.error("unmatched ')'"));
        }
        let mut program = Program::default();
        program.emit_node(&node)?;
        program.push(Inst::Match)?;
        Ok(Box::new(program))
    }
}

/// Code point ranges, inclusive, sorted and disjoint once normalised.
type Set = Vec<(u32, u32)>;

/// Most instructions one pattern may compile to (`a{1000}{1000}` is
/// refused rather than built).
const MAX_PROGRAM: usize = 20_000;
/// Deepest nesting of groups and classes the parser follows.
const MAX_NESTING: usize = 64;

#[derive(Debug)]
enum Node {
    Set(Set),
    Look(Look),
    Cat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

#[derive(Clone, Copy, Debug)]
enum Look {
    Start,
    End,
    Boundary,
    NotBoundary,
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn error(&self, what: &str) -> String {
        format!(
            "invalid or unsupported pattern: {what} at character {}",
            self.at
        )
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        self.at += usize::from(found);
        found
    }

    fn next(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or_else(|| self.error("unexpected end"))?;
        self.at += 1;
        Ok(c)
    }

    fn alternation(&mut self) -> Result<Node, String> {
        let mut alternatives = vec![self.sequence()?];
        while self.eat('|') {
            alternatives.push(self.sequence()?);
        }
        Ok(match alternatives.len() {
            1 => alternatives.remove(0),
            _ => Node::Alt(alternatives),
        })
    }

    fn sequence(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            items.push(self.term()?);
        }
        Ok(Node::Cat(items))
    }

    fn term(&mut self) -> Result<Node, String> {
        let atom = match self.next()? {
            '^' => Node::Look(Look::Start),
            '$' => Node::Look(Look::End),
            '\\' if self.eat('b') => Node::Look(Look::Boundary),
            '\\' if self.eat('B') => Node::Look(Look::NotBoundary),
            '\\' => Node::Set(self.escape(false)?),
            '(' => self.group()?,
            '.' => Node::Set(complement(vec![(10, 10), (13, 13), (0x2028, 0x2029)])),
            '[' => Node::Set(self.class()?),
            '*' | '+' | '?' | '{' => return Err(self.error("nothing to repeat")),
            ']' | '}' => return Err(self.error("lone bracket")),
            c => Node::Set(single(c)),
        };
        match self.quantifier()? {
            None => Ok(atom),
            Some(_) if matches!(atom, Node::Look(_)) => Err(self.error("an assertion repeated")),
            Some((min, max)) => Ok(Node::Repeat(Box::new(atom), min, max)),
        }
    }

    fn group(&mut self) -> Result<Node, String> {
        if self.eat('?') {
            match self.next()? {
                ':' => {}
                '<' if !matches!(self.peek(), Some('=' | '!')) => {
                    // A named group: the name only matters to backreferences.
                    while self.next()? != '>' {}
                }
                _ => return Err(self.error("lookaround")),
            }
        }
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error("groups nested too deep"));
        }
        let inner = self.alternation()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.error("unterminated group"));
        }
        Ok(inner)
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy (which
    /// changes no verdict).
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, String> {
        let bounds = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                let min = self.number()?;
                let max = if self.eat(',') {
                    match self.peek() {
                        Some('}') => None,
                        _ => Some(self.number()?),
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') || max.is_some_and(|m| m < min) {
                    return Err(self.error("malformed {} quantifier"));
                }
                (min, max)
            }
            _ => return Ok(None),
        };
        self.at += 1;
        self.eat('?');
        Ok(Some(bounds))
    }

    fn number(&mut self) -> Result<u32, String> {
        let start = self.at;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error("a number expected"));
        }
        Ok(n)
    }

    /// After a backslash: a class escape or one character.
    fn escape(&mut self, in_class: bool) -> Result<Set, String> {
        let c = self.next()?;
        let digits = vec![(0x30, 0x39)];
        let word = vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
        let space = vec![
            (9, 13),
            (0x20, 0x20),
            (0xA0, 0xA0),
            (0x1680, 0x1680),
            (0x2000, 0x200A),
            (0x2028, 0x2029),
            (0x202F, 0x202F),
            (0x205F, 0x205F),
            (0x3000, 0x3000),
            (0xFEFF, 0xFEFF),
        ];
        let code = match c {
            'd' => return Ok(digits),
            'D' => return Ok(complement(digits)),
            'w' => return Ok(word),
            'W' => return Ok(complement(word)),
            's' => return Ok(space),
            'S' => return Ok(complement(space)),
            'p' | 'P' => return Err(self.error("Unicode property escape")),
            'k' | '1'..='9' => return Err(self.error("backreference")),
            'b' if in_class => 8,
            '-' if in_class => 0x2D,
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'c' => match self.next()? {
                l if l.is_ascii_alphabetic() => u32::from(l) % 32,
                _ => return Err(self.error("malformed \\c escape")),
            },
            'x' => self.hex(2)?,
            'u' => self.unicode_escape()?,
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => u32::from(c),
            _ => return Err(self.error("invalid escape")),
        };
        if (0xD800..=0xDFFF).contains(&code) {
            return Err(self.error("lone surrogate"));
        }
        Ok(vec![(code, code)])
    }

    fn hex(&mut self, len: usize) -> Result<u32, String> {
        let mut n = 0;
        for _ in 0..len {
            let d = self.next()?.to_digit(16);
            n = n * 16 + d.ok_or_else(|| self.error("malformed hex escape"))?;
        }
        Ok(n)
    }

    /// `\uHHHH` (a surrogate pair in two escapes is one character) or
    /// `\u{H…}`.
    fn unicode_escape(&mut self) -> Result<u32, String> {
        if self.eat('{') {
            let mut n: u32 = 0;
            let start = self.at;
            while !self.eat('}') {
                let d = self.next()?.to_digit(16);
                let d = d.ok_or_else(|| self.error("malformed \\u{}"))?;
                n = n.saturating_mul(16).saturating_add(d);
            }
            if self.at == start + 1 {
                return Err(self.error("empty \\u{}"));
            }
            return match n {
                0..=0x10FFFF => Ok(n),
                _ => Err(self.error("code point out of range")),
            };
        }
        let high = self.hex(4)?;
        let pair = self.chars.get(self.at..self.at + 2) == Some(&['\\', 'u']);
        if (0xD800..=0xDBFF).contains(&high) && pair {
            let back = self.at;
            self.at += 2;
            match self.hex(4) {
                Ok(low @ 0xDC00..=0xDFFF) => {
                    return Ok(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                _ => self.at = back,
            }
        }
        Ok(high)
    }

    /// After `[`: the class, as a set.
    fn class(&mut self) -> Result<Set, String> {
        let negated = self.eat('^');
        let mut set = Vec::new();
        loop {
            if self.eat(']') {
                break;
            }
            let first = self.class_atom()?;
            let ranged = self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']');
            if !ranged {
                set.extend(first);
                continue;
            }
            self.at += 1;
            let last = self.class_atom()?;
            match (first.as_slice(), last.as_slice()) {
                ([(a, a2)], [(b, b2)]) if a == a2 && b == b2 && a <= b => set.push((*a, *b)),
                _ => return Err(self.error("invalid class range")),
            }
        }
        let set = normalise(set);
        Ok(if negated { complement(set) } else { set })
    }

    fn class_atom(&mut self) -> Result<Set, String> {
        match self.next()? {
            '\\' => self.escape(true),
            c => Ok(single(c)),
        }
    }
}

fn single(c: char) -> Set {
    vec![(u32::from(c), u32::from(c))]
}

fn normalise(mut set: Set) -> Set {
    set.sort_unstable();
    let mut out: Set = Vec::with_capacity(set.len());
    for (lo, hi) in set {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

fn complement(set: Set) -> Set {
    let mut out = Vec::new();
    let mut next = 0;
    for (lo, hi) in normalise(set) {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi + 1;
    }
    if next <= 0x10FFFF {
        out.push((next, 0x10FFFF));
    }
    out
}

#[derive(Debug)]
enum Inst {
    /// One character of the set at this index.
    Char(usize),
    /// Try both.
    Split(usize, usize),
    Jump(usize),
    Assert(Look),
    Match,
}

#[derive(Debug, Default)]
struct Program {
    insts: Vec<Inst>,
    sets: Vec<Set>,
}

impl Program {
    fn push(&mut self, inst: Inst) -> Result<usize, String> {
        if self.insts.len() >= MAX_PROGRAM {
            return Err(format!(
                "pattern too large: more than {MAX_PROGRAM} instructions"
            ));
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn patch(&mut self, at: usize, target: usize) {
        match &mut self.insts[at] {
            Inst::Split(_, b) => *b = target,
            Inst::Jump(t) => *t = target,
            _ => {}
        }
    }

    fn emit_node(&mut self, node: &Node) -> Result<(), String> {
        match node {
            Node::Set(set) => {
                self.sets.push(set.clone());
                self.push(Inst::Char(self.sets.len() - 1))?;
            }
            Node::Look(look) => {
                self.push(Inst::Assert(*look))?;
            }
            Node::Cat(items) => {
                for item in items {
                    self.emit_node(item)?;
                }
            }
            Node::Alt(alternatives) => {
                let mut jumps = Vec::new();
                let Some((last, rest)) = alternatives.split_last() else {
                    return Ok(());
                };
                for alternative in rest {
                    let split = self.push(Inst::Split(self.insts.len() + 1, 0))?;
                    self.emit_node(alternative)?;
                    jumps.push(self.push(Inst::Jump(0))?);
                    self.patch(split, self.insts.len());
                }
                self.emit_node(last)?;
                for jump in jumps {
                    self.patch(jump, self.insts.len());
                }
            }
            Node::Repeat(inner, min, max) => self.emit_repeat(inner, *min, *max)?,
        }
        Ok(())
    }

    fn emit_repeat(&mut self, inner: &Node, min: u32, max: Option<u32>) -> Result<(), String> {
        // A body that compiles to nothing repeats to nothing (`(){9999999}`).
        let before = self.insts.len();
        if min > 0 {
            self.emit_node(inner)?;
            if self.insts.len() == before {
                return Ok(());
            }
            for _ in 1..min {
                self.emit_node(inner)?;
            }
        }
        match max {
            None => {
                let split = self.push(Inst::Split(self.insts.len() + 1, 0))?;
                self.emit_node(inner)?;
                self.push(Inst::Jump(split))?;
                self.patch(split, self.insts.len());
            }
            Some(max) => {
                let mut splits = Vec::new();
                for _ in min..max {
                    let start = self.insts.len();
                    splits.push(self.push(Inst::Split(start + 1, 0))?);
                    self.emit_node(inner)?;
                    if self.insts.len() == start + 1 {
                        break;
                    }
                }
                for split in splits {
                    self.patch(split, self.insts.len());
                }
            }
        }
        Ok(())
    }

    /// Adds the thread at `pc` and every thread its jumps, splits and
    /// holding assertions reach; true when one reaches `Match`.
    fn add(&self, list: &mut Threads, pc: usize, prev: Option<char>, next: Option<char>) -> bool {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if !list.insert(pc) {
                continue;
            }
            match self.insts[pc] {
                Inst::Char(_) => list.waiting.push(pc),
                Inst::Split(a, b) => stack.extend([b, a]),
                Inst::Jump(t) => stack.push(t),
                Inst::Assert(look) if holds(look, prev, next) => stack.push(pc + 1),
                Inst::Assert(_) => {}
                Inst::Match => return true,
            }
        }
        false
    }
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn holds(look: Look, prev: Option<char>, next: Option<char>) -> bool {
    match look {
        Look::Start => prev.is_none(),
        Look::End => next.is_none(),
        Look::Boundary => is_word(prev) != is_word(next),
        Look::NotBoundary => is_word(prev) == is_word(next),
    }
}

/// The threads at one position: a set of program counters (each once) and
/// those waiting for a character.
struct Threads {
    seen: Vec<bool>,
    waiting: Vec<usize>,
}

impl Threads {
    fn new(len: usize) -> Self {
        Threads {
            seen: vec![false; len],
            waiting: Vec::new(),
        }
    }

    fn insert(&mut self, pc: usize) -> bool {
        !std::mem::replace(&mut self.seen[pc], true)
    }

    fn clear(&mut self) {
        self.seen.iter_mut().for_each(|s| *s = false);
        self.waiting.clear();
    }
}

impl Pattern for Program {
    fn is_match(&self, text: &str) -> bool {
        let mut now = Threads::new(self.insts.len());
        let mut then = Threads::new(self.insts.len());
        let mut prev = None;
        let mut chars = text.chars().peekable();
        loop {
            let next = chars.peek().copied();
            // Unanchored: a match may start at every position.
            if self.add(&mut now, 0, prev, next) {
                return true;
            }
            let Some(c) = chars.next() else {
                return false;
            };
            let after = chars.peek().copied();
            for &pc in &now.waiting {
                let Inst::Char(set) = self.insts[pc] else {
                    continue;
                };
                let set = &self.sets[set];
                let inside = set
                    .binary_search_by(|&(lo, hi)| {
                        if hi < u32::from(c) {
                            std::cmp::Ordering::Less
                        } else if lo > u32::from(c) {
                            std::cmp::Ordering::Greater
                        } else {
                            std::cmp::Ordering::Equal
                        }
                    })
                    .is_ok();
                if inside && self.add(&mut then, pc + 1, Some(c), after) {
                    return true;
                }
            }
            std::mem::swap(&mut now, &mut then);
            then.clear();
            prev = Some(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        LinearEngine.compile(pattern).unwrap().is_match(text)
    }

    #[test]
    fn s5_nested_quantifiers_answer_at_once() {
        let text = format!("{}!", "a".repeat(29));
        assert!(!matches("^(a+)+$", &text));
        assert!(matches("^(a+)+$", &"a".repeat(29)));
        assert!(!matches("^(a|a)*$", &text));
        assert!(!matches("^(a*)*b", &"a".repeat(5000)));
    }

    #[test]
    fn ecmascript_escapes_classes_and_anchors() {
        assert!(matches(r"^v\d+\.\d+$", "v1.22"));
        assert!(!matches(r"^v\d+\.\d+$", "v1.x"));
        assert!(matches(r"\bfoo\b", "a foo."));
        assert!(!matches(r"\bfoo\b", "afoo"));
        assert!(matches(r"^[^\s]+$", "héllo"));
        assert!(!matches(r"^\S+$", "a\u{A0}b"));
        assert!(matches(r"^[\w-]{2,3}$", "a-_"));
        assert!(!matches(r"^[\w-]{2,3}$", "a-_b"));
        assert!(matches(r"^\u{1F600}.$", "😀x"));
        assert!(matches(r"^\uD83D\uDE00$", "😀"));
        assert!(matches("^.$", "😀"), "the u flag: one code point");
        assert!(!matches("^.$", "\n"));
        assert!(matches("^[]?$", "") && matches("^[^]$", "\n") && matches("^a{2}$", "aa"));
        assert!(matches("", "anything") && matches("x*", ""));
        assert!(matches("^(?:ab|cd)(?<n>e)?$", "cde"));
    }

    #[test]
    fn what_it_cannot_match_in_linear_time_is_refused() {
        for p in [
            "(?=a)",
            "(?!a)",
            "(?<=a)",
            "(?<!a)",
            r"(a)\1",
            r"\k<n>",
            r"\p{L}",
            r"\uD800",
            "(",
            ")",
            "a**",
            "[z-a]",
            "{",
            "}",
            "]",
            "[]]",
            r"\a",
            "a{2,1}",
            "^*",
            "(a){1000}{1000}",
            r"\u{}",
            r"\u{110000}",
            "a{9999}{2}",
            "(a{9999}){3}",
        ] {
            assert!(LinearEngine.compile(p).is_err(), "{p}");
        }
        let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(LinearEngine.compile(&deep).is_err());
        assert!(LinearEngine.compile("(){999999999}").is_ok());
    }
}

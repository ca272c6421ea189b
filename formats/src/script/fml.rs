//! `.fml`: a script's formula set (openparkan `docs/15-behaviour.md` "A
//! statement"; docs/facts.md "Scripts").
//!
//! Text: a `//FormulaSet export file` line, a blank line, then one
//! `FUNCTION( <name>, <expression>, <tail> )` a line, the outer fields empty
//! in every known file. Formula *n* is the *n*th `FUNCTION` line; a
//! `dest = formula` node's trailer indexes it. Every line is kept as stored
//! and [`FormulaSet::to_bytes`] gives the file back byte-identical.
//!
//! Expressions hold numbers, variables of `varset.var`, brackets and the
//! evaluator's 13 operators (docs/15 reads their names from its table).
//! Known files use only `+ - * ( )`; for the others no spelling is
//! recorded, and this reader uses (our choice, docs/facts.md): `/`, `^`
//! (power, right-associative, binding tighter than a sign), `&`, `|`,
//! unary `-` (sign change), `!` (not), and the one-letter calls `N(x)`
//! (normalisator), `S(x)` (significator), `B(x)` (booleanisator) and
//! `A(x)` (absolute). Precedence from loosest: `|`, `&`, `+ -`, `* /`,
//! unary `- !`, `^`.

use crate::error::Result;
use std::fmt;

/// The format name errors carry.
pub const FORMAT: &str = "FML";

/// The first line of every formula set.
pub const HEADER: &str = "//FormulaSet export file";

/// Deepest nesting of brackets and operators an expression may have.
// STAND-IN: 64 levels, a guard for the parser (docs/15 gives the evaluator
// no limit); settled by the deepest retail formula.
pub const MAX_DEPTH: usize = 64;

/// A one-operand operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    /// `-x`: sign change.
    Negate,
    /// `!x`: 1 when x is 0, else 0.
    Not,
    /// `N(x)`: x clamped to 0..1.
    Normalise,
    /// `S(x)`: the sign of x (−1, 0, 1).
    Sign,
    /// `B(x)`: 1 when x is not 0, else 0.
    Boolean,
    /// `A(x)`: |x|.
    Absolute,
}

impl Unary {
    const CALLS: [(char, Unary); 4] = [
        ('N', Unary::Normalise),
        ('S', Unary::Sign),
        ('B', Unary::Boolean),
        ('A', Unary::Absolute),
    ];

    fn apply(self, x: f32) -> f32 {
        let truth = |b: bool| if b { 1.0 } else { 0.0 };
        match self {
            Unary::Negate => -x,
            Unary::Not => truth(x == 0.0),
            Unary::Normalise => x.clamp(0.0, 1.0),
            Unary::Sign => {
                if x == 0.0 {
                    0.0
                } else {
                    x.signum()
                }
            }
            Unary::Boolean => truth(x != 0.0),
            Unary::Absolute => x.abs(),
        }
    }
}

/// A two-operand operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Subtract,
    Multiply,
    Divide,
    Power,
    And,
    Or,
}

impl Binary {
    // STAND-IN: the spellings `/ ^ & |` (and, in the parser, unary `-`, `!`,
    // `N() S() B() A()`) and their precedence (docs/15 names the 13
    // operators; retail files spell only `+ - * ( )`); settled by a formula
    // compiled by the original editor with the other operators.
    fn symbol(self) -> char {
        match self {
            Binary::Add => '+',
            Binary::Subtract => '-',
            Binary::Multiply => '*',
            Binary::Divide => '/',
            Binary::Power => '^',
            Binary::And => '&',
            Binary::Or => '|',
        }
    }

    /// Binding strength: higher binds tighter.
    fn level(self) -> u8 {
        match self {
            Binary::Or => 0,
            Binary::And => 1,
            Binary::Add | Binary::Subtract => 2,
            Binary::Multiply | Binary::Divide => 3,
            Binary::Power => 5,
        }
    }
}

/// Sign change and not bind between `* /` and `^`.
const UNARY_LEVEL: u8 = 4;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Number(f32),
    /// A variable of `varset.var`, by name.
    Var(String),
    Unary(Unary, Box<Expr>),
    Binary(Binary, Box<Expr>, Box<Expr>),
}

/// Why a formula has no value.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    /// A variable the lookup does not know.
    UnknownVariable(String),
    /// A division by zero.
    DivisionByZero,
    /// A result that is not a finite number.
    NotFinite,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::UnknownVariable(v) => write!(f, "unknown variable `{v}`"),
            EvalError::DivisionByZero => write!(f, "division by zero"),
            EvalError::NotFinite => write!(f, "a result that is not a finite number"),
        }
    }
}

impl Expr {
    /// Parses one expression.
    pub fn parse(text: &str) -> Result<Self, (String, usize)> {
        let mut p = Parser {
            text: text.as_bytes(),
            pos: 0,
            depth: 0,
        };
        let e = p.binary(0)?;
        p.space();
        if p.pos != p.text.len() {
            return Err(("an operator or the end of the expression".into(), p.pos));
        }
        Ok(e)
    }

    /// Its value, with variables from `var` (float arithmetic, as the
    /// evaluator's float setter stores it).
    pub fn eval(&self, var: &dyn Fn(&str) -> Option<f32>) -> Result<f32, EvalError> {
        let v = match self {
            Expr::Number(n) => *n,
            Expr::Var(name) => var(name).ok_or_else(|| EvalError::UnknownVariable(name.clone()))?,
            Expr::Unary(op, x) => op.apply(x.eval(var)?),
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.eval(var)?, b.eval(var)?);
                let truth = |t: bool| if t { 1.0 } else { 0.0 };
                match op {
                    Binary::Add => a + b,
                    Binary::Subtract => a - b,
                    Binary::Multiply => a * b,
                    Binary::Divide if b == 0.0 => return Err(EvalError::DivisionByZero),
                    Binary::Divide => a / b,
                    Binary::Power => a.powf(b),
                    Binary::And => truth(a != 0.0 && b != 0.0),
                    Binary::Or => truth(a != 0.0 || b != 0.0),
                }
            }
        };
        if v.is_finite() {
            Ok(v)
        } else {
            Err(EvalError::NotFinite)
        }
    }

    /// Every variable it reads, in reading order (repeats included).
    pub fn variables(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Var(v) = e {
                out.push(v.as_str());
            }
        });
        out
    }

    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Unary(_, x) => x.visit(f),
            Expr::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Number(_) | Expr::Var(_) => {}
        }
    }

    fn level(&self) -> u8 {
        match self {
            Expr::Binary(op, ..) => op.level(),
            Expr::Unary(Unary::Negate | Unary::Not, _) => UNARY_LEVEL,
            _ => u8::MAX,
        }
    }
}

/// Prints the expression so that [`Expr::parse`] reads it back the same:
/// brackets only where precedence needs them.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bracket = |f: &mut fmt::Formatter<'_>, e: &Expr, yes: bool| {
            if yes {
                write!(f, "({e})")
            } else {
                write!(f, "{e}")
            }
        };
        match self {
            Expr::Number(n) => write!(f, "{n}"),
            Expr::Var(v) => write!(f, "{v}"),
            Expr::Unary(op, x) => match op {
                Unary::Negate | Unary::Not => {
                    write!(f, "{}", if *op == Unary::Negate { '-' } else { '!' })?;
                    // A negative number after `-` would read as `--`.
                    let neg_number = matches!(**x, Expr::Number(n) if n.is_sign_negative());
                    bracket(f, x, x.level() < UNARY_LEVEL || neg_number)
                }
                _ => {
                    let letter = Unary::CALLS
                        .iter()
                        .find(|(_, u)| u == op)
                        .map_or('?', |c| c.0);
                    write!(f, "{letter}({x})")
                }
            },
            Expr::Binary(op, a, b) => {
                let l = op.level();
                // Power is right-associative; the others left.
                let (left_needs, right_needs) = if *op == Binary::Power {
                    (a.level() <= l, b.level() < l)
                } else {
                    (a.level() < l, b.level() <= l)
                };
                // `-2^2` would read as `-(2^2)`: bracket a signed base.
                let signed_base =
                    *op == Binary::Power && matches!(**a, Expr::Number(n) if n.is_sign_negative());
                bracket(f, a, left_needs || signed_base)?;
                write!(f, " {} ", op.symbol())?;
                bracket(f, b, right_needs)
            }
        }
    }
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    depth: usize,
}

type Parsed = Result<Expr, (String, usize)>;

impl Parser<'_> {
    fn space(&mut self) {
        while self
            .text
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.text.get(self.pos).copied()
    }

    fn deeper(&mut self) -> Result<(), (String, usize)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((format!("nesting within {MAX_DEPTH} levels"), self.pos));
        }
        Ok(())
    }

    /// Operators of level `min` and above, left to right (power: right).
    fn binary(&mut self, min: u8) -> Parsed {
        self.deeper()?;
        let mut left = if min <= UNARY_LEVEL {
            self.unary()?
        } else {
            self.primary()?
        };
        loop {
            let op = match self.peek() {
                Some(b'+') => Binary::Add,
                Some(b'-') => Binary::Subtract,
                Some(b'*') => Binary::Multiply,
                Some(b'/') => Binary::Divide,
                Some(b'^') => Binary::Power,
                Some(b'&') => Binary::And,
                Some(b'|') => Binary::Or,
                _ => break,
            };
            if op.level() < min {
                break;
            }
            self.pos += 1;
            let next = if op == Binary::Power {
                // Right-associative; a sign may follow (`2^-1`).
                self.unary_or(op.level())?
            } else {
                self.binary(op.level() + 1)?
            };
            left = Expr::Binary(op, Box::new(left), Box::new(next));
        }
        self.depth -= 1;
        Ok(left)
    }

    /// The right side of `^`: a sign and its operand, or a power chain.
    fn unary_or(&mut self, level: u8) -> Parsed {
        match self.peek() {
            Some(b'-' | b'!') => self.unary(),
            _ => self.binary(level),
        }
    }

    /// A sign change or not, then its operand (a power chain).
    fn unary(&mut self) -> Parsed {
        self.deeper()?;
        let e = match self.peek() {
            Some(c @ (b'-' | b'!')) => {
                self.pos += 1;
                let op = if c == b'-' { Unary::Negate } else { Unary::Not };
                Expr::Unary(op, Box::new(self.unary()?))
            }
            _ => self.binary(UNARY_LEVEL + 1)?,
        };
        self.depth -= 1;
        Ok(e)
    }

    fn primary(&mut self) -> Parsed {
        let start = match self.peek() {
            None => return Err(("a number, a variable or `(`".into(), self.pos)),
            Some(_) => self.pos,
        };
        let c = self.text[start];
        if c == b'(' {
            self.pos += 1;
            self.deeper()?;
            let e = self.binary(0)?;
            self.depth -= 1;
            return self.close(e);
        }
        if c.is_ascii_digit() || c == b'.' {
            return self.number(start);
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while self
                .text
                .get(self.pos)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                self.pos += 1;
            }
            let name = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or_default();
            let call = Unary::CALLS
                .iter()
                .find(|(letter, _)| name.len() == 1 && name.starts_with(*letter));
            if let (Some((_, op)), Some(b'(')) = (call, self.peek()) {
                self.pos += 1;
                self.deeper()?;
                let x = self.binary(0)?;
                self.depth -= 1;
                return self.close(Expr::Unary(*op, Box::new(x)));
            }
            return Ok(Expr::Var(name.to_string()));
        }
        Err(("a number, a variable or `(`".into(), start))
    }

    fn close(&mut self, e: Expr) -> Parsed {
        if self.peek() != Some(b')') {
            return Err(("`)`".into(), self.pos));
        }
        self.pos += 1;
        Ok(e)
    }

    /// Digits with an optional fraction and exponent.
    fn number(&mut self, start: usize) -> Parsed {
        let digits = |p: &mut Self| {
            while p.text.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
        };
        digits(self);
        if self.text.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            digits(self);
        }
        if matches!(self.text.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.text.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            digits(self);
        }
        let text = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or_default();
        text.parse::<f32>()
            .ok()
            .filter(|n| n.is_finite())
            .map(Expr::Number)
            .ok_or_else(|| (format!("a number, not `{text}`"), start))
    }
}

/// One `FUNCTION(...)` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    /// The expression as written.
    pub text: String,
    pub expr: Expr,
    /// 1-based line.
    pub line: usize,
    /// Offset of the line's first byte in the file.
    pub offset: usize,
}

/// A whole `.fml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormulaSet {
    lines: Vec<Vec<u8>>,
    formulas: Vec<Formula>,
}

impl FormulaSet {
    /// Reads every line: blank, `//` comment or `FUNCTION(...)` with a
    /// well-formed expression; anything else is an error at its offset.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let (lines, formulas) = super::read_lines(data, FORMAT, &mut function)?;
        Ok(Self { lines, formulas })
    }

    /// A formula set of `expressions` in order: the header, a blank line
    /// and one `FUNCTION( , <expression>,  )` a line, CRLF line ends.
    pub fn build<S: AsRef<str>>(expressions: &[S]) -> Result<Self> {
        let mut text = format!("{HEADER}\r\n\r\n");
        for e in expressions {
            text.push_str(&format!("FUNCTION( , {},  )\r\n", e.as_ref()));
        }
        Self::parse(text.as_bytes())
    }

    /// The file back, byte-identical to what was parsed.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.lines.concat()
    }

    /// The formulas; formula *n* is `formulas()[n]`.
    pub fn formulas(&self) -> &[Formula] {
        &self.formulas
    }
}

/// `FUNCTION( name, expression, tail )`; on failure what was expected and
/// the column.
fn function(body: &str, line: usize, offset: usize) -> Result<Formula, (String, usize)> {
    let head = "FUNCTION";
    let rest = body
        .get(..head.len())
        .filter(|h| h.eq_ignore_ascii_case(head))
        .map(|_| &body[head.len()..])
        .ok_or_else(|| ("a FUNCTION( line".to_string(), 0))?;
    let open = head.len() + (rest.len() - rest.trim_start().len());
    if !body[open..].starts_with('(') || !body.ends_with(')') {
        return Err(("FUNCTION( ... )".into(), open));
    }
    let inner = &body[open + 1..body.len() - 1];
    // The two commas outside brackets: name, expression, tail.
    let mut depth = 0i32;
    let mut commas = Vec::new();
    for (i, ch) in inner.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => commas.push(i),
            _ => {}
        }
    }
    let [first, second] = commas[..] else {
        return Err((
            format!(
                "three fields (name, expression, tail), found {}",
                commas.len() + 1
            ),
            open + 1,
        ));
    };
    let field = &inner[first + 1..second];
    let at = open + 1 + first + 1;
    let text = field.trim();
    let lead = field.len() - field.trim_start().len();
    let expr = Expr::parse(text).map_err(|(expected, col)| (expected, at + lead + col))?;
    Ok(Formula {
        text: text.to_string(),
        expr,
        line,
        offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    fn eval(text: &str) -> Result<f32, EvalError> {
        Expr::parse(text)
            .unwrap()
            .eval(&|v| (v == "dTemp").then_some(4.0))
    }

    #[test]
    fn the_thirteen_operators_evaluate() {
        let cases = [
            ("1 + 2", 3.0),
            ("dTemp - 1", 3.0),
            ("2 * dTemp", 8.0),
            ("9 / dTemp", 2.25),
            ("2 ^ 3 ^ 2", 512.0),
            ("1 & 0", 0.0),
            ("1 | 0", 1.0),
            ("-dTemp", -4.0),
            ("!0", 1.0),
            ("N(dTemp)", 1.0),
            ("S(0 - dTemp)", -1.0),
            ("B(0.5)", 1.0),
            ("A(2 - dTemp)", 2.0),
            ("20 + 55*dTemp", 240.0),
            ("-2 ^ 2", -4.0),
            ("(1 + 2) * 3", 9.0),
            ("2 ^ -1", 0.5),
            ("1.5e1", 15.0),
        ];
        for (text, want) in cases {
            assert_eq!(eval(text), Ok(want), "{text}");
        }
        assert_eq!(eval("1 / 0"), Err(EvalError::DivisionByZero));
        assert_eq!(
            eval("fMissing + 1"),
            Err(EvalError::UnknownVariable("fMissing".into()))
        );
    }

    #[test]
    fn printing_reads_back_the_same_tree() {
        for text in [
            "fTemp + 0.00001",
            "a - (b - c)",
            "(a - b) - c",
            "-(a + b) * c",
            "(2 ^ 3) ^ 2",
            "2 ^ 3 ^ 2",
            "(-2) ^ 2",
            "!(a | b) & c",
            "N(a) + S(b * 2) - B(c) / A(d)",
            "--a",
            "-(-1)",
            "a / b * c",
            "a / (b * c)",
        ] {
            let e = Expr::parse(text).unwrap();
            let printed = e.to_string();
            assert_eq!(Expr::parse(&printed).unwrap(), e, "{text} -> {printed}");
        }
    }

    #[test]
    fn a_formula_set_round_trips_and_indexes_its_lines() {
        let text = "//FormulaSet export file\r\n\r\nFUNCTION( , fTemp + 0.00001,  )\r\nFUNCTION( , 20 + 55*fDifficulty,  )\r\n";
        let set = FormulaSet::parse(text.as_bytes()).unwrap();
        assert_eq!(set.to_bytes(), text.as_bytes());
        assert_eq!(set.formulas().len(), 2);
        assert_eq!(set.formulas()[1].text, "20 + 55*fDifficulty");
        assert_eq!(set.formulas()[1].expr.variables(), ["fDifficulty"]);
        assert_eq!(set.formulas()[1].line, 4);
        let built = FormulaSet::build(&["fTemp + 0.00001", "20 + 55*fDifficulty"]).unwrap();
        assert_eq!(built.to_bytes(), text.as_bytes());
    }

    #[test]
    fn a_bad_formula_is_an_error_at_its_column() {
        let e = FormulaSet::parse(b"FUNCTION( , a + * b,  )\n").unwrap_err();
        // `*` at column 16 of the line.
        assert_eq!(e.offset, 16);
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected == "a number, a variable or `(`"),
            "{e}"
        );
        let e = FormulaSet::parse(b"//c\n  x\n").unwrap_err();
        assert_eq!(e.offset, 6);
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected == "a FUNCTION( line"),
            "{e}"
        );
        let e = FormulaSet::parse(b"FUNCTION( , (a + b,  )\n").unwrap_err();
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected.starts_with("three fields")),
            "{e}"
        );
        let deep = format!("FUNCTION( , {}1{},  )", "(".repeat(100), ")".repeat(100));
        let e = FormulaSet::parse(deep.as_bytes()).unwrap_err();
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected.starts_with("nesting")),
            "{e}"
        );
    }
}

//! `varset.var`: the variables every script and formula of a directory
//! names by index (openparkan `docs/15-behaviour.md` "The vocabulary";
//! docs/facts.md "Scripts").
//!
//! Plain text, one declaration a line, documented by its own first lines:
//!
//! ```text
//! //VAR( Type, Name, DefValue, Minimum, Maximum, Comment)
//! //STRING( Size, Name, DefValue, Comment)
//! VAR( DWORD, ClanBaseX, 950);
//! ```
//!
//! **The index of a variable is its position among the declarations**, so
//! the file is read in order, a stray `;` after the `)` included. Every line
//! is kept as stored (terminator included) and [`Varset::to_bytes`] gives the
//! file back byte-identical. Types are the interpreter's six (`void`, `int`,
//! `BOOL`, `float`, `char*`, `DWORD`; docs/15 reads all six from its type
//! table); an absent default is zero. Fields are split at commas outside
//! double quotes, the comment taking whatever remains.

use crate::error::Result;
use std::collections::HashMap;

/// The format name errors carry.
pub const FORMAT: &str = "varset.var";

/// A variable's type: the interpreter's type tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum VarType {
    Void = 0,
    Int = 1,
    Bool = 2,
    Float = 3,
    Str = 4,
    Dword = 5,
}

impl VarType {
    /// The type word of a `VAR(...)` declaration (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        [
            ("void", Self::Void),
            ("int", Self::Int),
            ("BOOL", Self::Bool),
            ("float", Self::Float),
            ("char*", Self::Str),
            ("DWORD", Self::Dword),
        ]
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| t)
    }

    /// The type word as the header comment spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Void => "void",
            Self::Int => "int",
            Self::Bool => "BOOL",
            Self::Float => "float",
            Self::Str => "char*",
            Self::Dword => "DWORD",
        }
    }
}

/// A variable's default value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Value {
    Void,
    Int(i32),
    Bool(bool),
    Float(f32),
    Str(String),
    Dword(u32),
}

impl Value {
    /// The value as the 32 bits a numeric variable holds (a string's is 0).
    pub fn bits(&self) -> u32 {
        match self {
            Value::Void | Value::Str(_) => 0,
            Value::Int(v) => *v as u32,
            Value::Bool(b) => u32::from(*b),
            Value::Float(f) => f.to_bits(),
            Value::Dword(d) => *d,
        }
    }
}

/// One declaration.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Variable {
    pub name: String,
    pub ty: VarType,
    pub default: Value,
    /// `VAR`'s minimum and maximum, as written (not enforced by the engine
    /// as far as is known).
    pub minimum: Option<String>,
    pub maximum: Option<String>,
    /// `STRING`'s size.
    pub size: Option<u32>,
    pub comment: Option<String>,
    /// 1-based line of the declaration.
    pub line: usize,
}

/// The whole file: its raw lines and its declarations in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Varset {
    lines: Vec<Vec<u8>>,
    vars: Vec<Variable>,
    by_name: HashMap<String, usize>,
}

impl Varset {
    /// Reads every line; a line that is neither blank, a `//` comment nor a
    /// well-formed declaration is an error at its offset.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let (lines, vars) =
            super::read_lines(data, FORMAT, &mut |body, line, _| declaration(body, line))?;
        Ok(Self::from_parts(lines, vars))
    }

    fn from_parts(lines: Vec<Vec<u8>>, vars: Vec<Variable>) -> Self {
        let mut by_name = HashMap::with_capacity(vars.len());
        for (i, v) in vars.iter().enumerate() {
            // The first declaration of a name is the one a lookup finds.
            by_name.entry(v.name.clone()).or_insert(i);
        }
        Self {
            lines,
            vars,
            by_name,
        }
    }

    /// Writes declarations `(type, name, default)` in order, with the two
    /// header comment lines, CRLF line ends.
    pub fn build(decls: &[(VarType, &str, &str)]) -> Result<Self> {
        let mut text = String::from(
            "//VAR( Type, Name, DefValue, Minimum, Maximum, Comment)\r\n\
             //STRING( Size, Name, DefValue, Comment)\r\n\r\n",
        );
        for (ty, name, default) in decls {
            text.push_str(&format!("VAR( {}, {name}, {default})\r\n", ty.name()));
        }
        Self::parse(text.as_bytes())
    }

    /// The file back, byte-identical to what was parsed.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.lines.concat()
    }

    /// Every declaration; a variable's index is its position here.
    pub fn vars(&self) -> &[Variable] {
        &self.vars
    }

    pub fn len(&self) -> usize {
        self.vars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// The variable at `index`.
    pub fn get(&self, index: u32) -> Option<&Variable> {
        self.vars.get(index as usize)
    }

    /// The index of the first declaration named `name` (exact spelling).
    pub fn index_of(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).map(|&i| i as u32)
    }

    /// Names declared more than once, with the lines of their later
    /// declarations (which no lookup by name reaches).
    pub fn duplicates(&self) -> Vec<(&str, usize)> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(i, v)| self.by_name.get(&v.name) != Some(i))
            .map(|(_, v)| (v.name.as_str(), v.line))
            .collect()
    }
}

/// Reads `VAR(...)` or `STRING(...)`; on failure, what was expected and
/// the column it was expected at.
fn declaration(body: &str, line: usize) -> Result<Variable, (String, usize)> {
    let open = body
        .find('(')
        .ok_or_else(|| ("a VAR( or STRING( declaration".to_string(), 0))?;
    let form = body[..open].trim();
    let close = close_paren(body, open)
        .ok_or_else(|| ("a `)` closing the declaration".to_string(), body.len()))?;
    let tail = body[close + 1..].trim_start();
    let tail = tail.strip_prefix(';').unwrap_or(tail).trim_start();
    if !tail.is_empty() && !tail.starts_with("//") {
        return Err((
            "nothing but `;` or a `//` comment after the declaration".into(),
            close + 1,
        ));
    }
    let inner = &body[open + 1..close];
    let (fields, ty) = if form.eq_ignore_ascii_case("VAR") {
        let f = split_fields(inner, 6);
        let ty = VarType::from_name(f[0]).ok_or_else(|| {
            (
                format!(
                    "a variable type (void, int, BOOL, float, char*, DWORD), not `{}`",
                    f[0]
                ),
                open + 1,
            )
        })?;
        (f, ty)
    } else if form.eq_ignore_ascii_case("STRING") {
        (split_fields(inner, 4), VarType::Str)
    } else {
        return Err(("a VAR( or STRING( declaration".into(), 0));
    };
    let field = |i: usize| fields.get(i).copied().filter(|s| !s.is_empty());
    let name = field(1).ok_or_else(|| ("a variable name".to_string(), open + 1))?;
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err((
            format!("a variable name of letters, digits and `_`, not `{name}`"),
            open + 1,
        ));
    }
    let default = value(ty, field(2)).map_err(|e| (e, open + 1))?;
    let (minimum, maximum, size, comment) =
        if ty == VarType::Str && form.eq_ignore_ascii_case("STRING") {
            let size = match field(0) {
                Some(s) => Some(
                    s.parse::<u32>()
                        .map_err(|_| (format!("a string size, not `{s}`"), open + 1))?,
                ),
                None => None,
            };
            (None, None, size, field(3))
        } else {
            (field(3), field(4), None, field(5))
        };
    Ok(Variable {
        name: name.to_string(),
        ty,
        default,
        minimum: minimum.map(str::to_string),
        maximum: maximum.map(str::to_string),
        size,
        comment: comment.map(str::to_string),
        line,
    })
}

/// The `)` that closes the `(` at `open`, outside quotes.
fn close_paren(body: &str, open: usize) -> Option<usize> {
    let mut quoted = false;
    for (i, ch) in body[open + 1..].char_indices() {
        match ch {
            '"' => quoted = !quoted,
            ')' if !quoted => return Some(open + 1 + i),
            _ => {}
        }
    }
    None
}

/// At most `n` trimmed fields split at commas outside quotes; the last
/// takes the rest.
fn split_fields(inner: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    let mut quoted = false;
    for (i, ch) in inner.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted && out.len() + 1 < n => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[start..].trim());
    out
}

/// A default of type `ty` (zero, false or empty when absent).
fn value(ty: VarType, text: Option<&str>) -> Result<Value, String> {
    let bad = |t: &str| format!("a {} default, not `{t}`", ty.name());
    let Some(t) = text else {
        return Ok(match ty {
            VarType::Void => Value::Void,
            VarType::Int => Value::Int(0),
            VarType::Bool => Value::Bool(false),
            VarType::Float => Value::Float(0.0),
            VarType::Str => Value::Str(String::new()),
            VarType::Dword => Value::Dword(0),
        });
    };
    Ok(match ty {
        VarType::Void => Value::Void,
        VarType::Int => Value::Int(integer(t).ok_or_else(|| bad(t))? as i32),
        VarType::Dword => Value::Dword(integer(t).ok_or_else(|| bad(t))?),
        VarType::Bool => Value::Bool(match t {
            _ if t.eq_ignore_ascii_case("TRUE") => true,
            _ if t.eq_ignore_ascii_case("FALSE") => false,
            _ => integer(t).ok_or_else(|| bad(t))? != 0,
        }),
        VarType::Float => Value::Float(t.parse::<f32>().map_err(|_| bad(t))?),
        VarType::Str => Value::Str(t.trim_matches('"').to_string()),
    })
}

/// A 32-bit word written as decimal (negative wraps) or `0x` hex.
fn integer(t: &str) -> Option<u32> {
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    t.parse::<u32>()
        .ok()
        .or_else(|| t.parse::<i32>().ok().map(|v| v as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    const FILE: &str = "//VAR( Type, Name, DefValue, Minimum, Maximum, Comment)\r\n\
        //STRING( Size, Name, DefValue, Comment)\r\n\
        \r\n\
        VAR( float, f0, 0)\r\n\
        VAR( DWORD, ClanBaseX, 950);\r\n\
        VAR( DWORD, CLASS_BUILDING, 0x80000000, 0, 0, a class, with a comma)\r\n\
        VAR( DWORD, ERROR, -1);  // the error word\r\n\
        VAR(float,fDifficulty)\r\n\
        STRING( 32, sName, \"a, b\", shown)\r\n\
        VAR( BOOL, bOn, TRUE)";

    #[test]
    fn declarations_are_indexed_by_position_stray_semicolons_included() {
        let v = Varset::parse(FILE.as_bytes()).unwrap();
        assert_eq!(v.to_bytes(), FILE.as_bytes());
        let names: Vec<_> = v.vars().iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "f0",
                "ClanBaseX",
                "CLASS_BUILDING",
                "ERROR",
                "fDifficulty",
                "sName",
                "bOn"
            ]
        );
        assert_eq!(v.index_of("ERROR"), Some(3));
        assert_eq!(v.get(1).unwrap().default, Value::Dword(950));
        assert_eq!(v.get(2).unwrap().default, Value::Dword(0x8000_0000));
        assert_eq!(
            v.get(2).unwrap().comment.as_deref(),
            Some("a class, with a comma")
        );
        assert_eq!(v.get(3).unwrap().default.bits(), 0xffff_ffff);
        assert_eq!(v.get(4).unwrap().default, Value::Float(0.0));
        assert_eq!(v.get(5).unwrap().ty, VarType::Str);
        assert_eq!(v.get(5).unwrap().default, Value::Str("a, b".into()));
        assert_eq!(v.get(5).unwrap().size, Some(32));
        assert_eq!(v.get(6).unwrap().default, Value::Bool(true));
        assert_eq!(v.get(3).unwrap().line, 7);
    }

    #[test]
    fn a_bad_line_is_an_error_at_its_offset() {
        let text = "VAR( float, f0, 0)\nVAR( quad, q, 0)\n";
        let e = Varset::parse(text.as_bytes()).unwrap_err();
        assert_eq!(e.offset, 19 + 4);
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected.contains("not `quad`")),
            "{e}"
        );
        let e = Varset::parse(b"VAR( DWORD, d, 1) x\n").unwrap_err();
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected.starts_with("nothing but")),
            "{e}"
        );
        let e = Varset::parse(b"VAR( DWORD, d, 1\n").unwrap_err();
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected.contains("closing")),
            "{e}"
        );
        let e = Varset::parse(b"VAR( DWORD, d, ten)\n").unwrap_err();
        assert!(
            matches!(&e.problem, Problem::Invalid { expected, .. } if expected == "a DWORD default, not `ten`"),
            "{e}"
        );
    }

    #[test]
    fn a_later_declaration_of_a_name_is_a_duplicate_lookups_skip() {
        let v = Varset::parse(b"VAR( DWORD, a, 1)\nVAR( DWORD, a, 2)\n").unwrap();
        assert_eq!(v.index_of("a"), Some(0));
        assert_eq!(v.duplicates(), [("a", 2)]);
    }
}

//! `.scr`: a clan's compiled behaviour script (openparkan `docs/15-behaviour.md`,
//! GAMEPLAY §6; docs/facts.md "Scripts").
//!
//! Little-endian, nothing aligned or padded:
//!
//! ```text
//! i32  function-table length (73 for this engine)
//! i32  handler count
//! handler x count:
//!     i32  name length, then the name's bytes (no terminator counted)
//!     u8   the name's terminating byte (0)
//!     i32  index (its own position)
//!     i32  node count
//!     node x count:
//!         i32 x 4  head: function, destination, source (or a number), kind
//!         i32      relation (an if's comparison 0..5, else 6)
//!         i32      operand count, then the operands
//!         i32      trailer (a formula index, or -1)
//! ```
//!
//! [`Script::parse`] checks the structure only and keeps every word raw, so
//! any file it accepts is written back byte-identical by
//! [`Script::to_bytes`]. What the words mean is checked by [`Script::check`]
//! (strict validation) and decoded per node by [`Node::op`]. A function-table
//! length other than [`FUNCTION_TABLE_LEN`] is its own error
//! ([`Problem::VersionMismatch`]), distinct from a malformed file: the engine
//! reports it and runs the script anyway.

use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};

/// The format name errors carry.
pub const FORMAT: &str = "SCR";

/// The length of the engine's script function table, the first word of
/// every script it accepts without complaint.
pub const FUNCTION_TABLE_LEN: i32 = 73;

/// "No value" in a head word or the trailer.
pub const NONE: i32 = -1;

/// The relation word of every node that is not an `if`.
pub const NO_RELATION: i32 = 6;

/// Bytes of a node without its operands: seven words.
const NODE_FIXED_BYTES: usize = 28;

/// Bytes of a handler with an empty name and no nodes.
const HANDLER_FIXED_BYTES: usize = 13;

/// A whole script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// The function-table length it was compiled against.
    pub table_len: i32,
    pub handlers: Vec<Handler>,
}

/// A named handler and its node list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    /// The name as stored (ASCII in every known script).
    pub name: Vec<u8>,
    /// The byte after the name (the engine reads it as the terminator; 0).
    pub terminator: u8,
    /// The stored index (its own position in every known script).
    pub index: i32,
    pub nodes: Vec<Node>,
}

/// One node, every word as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// `head[0]`: the called function's slot, or −1.
    pub function: i32,
    /// `head[1]`: the destination variable, or −1.
    pub dest: i32,
    /// `head[2]`: the source variable (statement) or a number (constant), or −1.
    pub source: i32,
    /// `head[3]`: the node kind, −1..6.
    pub kind: i32,
    /// An `if`'s relation 0..5, else 6.
    pub relation: i32,
    pub operands: Vec<i32>,
    /// The formula index of a `dest = formula` statement, or −1.
    pub trailer: i32,
}

/// What `head[3]` says a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    Statement = -1,
    If = 0,
    End = 1,
    Label = 2,
    Goto = 3,
    Switch = 4,
    Return = 5,
    Constant = 6,
}

impl NodeKind {
    pub fn from_word(word: i32) -> Option<Self> {
        Some(match word {
            -1 => Self::Statement,
            0 => Self::If,
            1 => Self::End,
            2 => Self::Label,
            3 => Self::Goto,
            4 => Self::Switch,
            5 => Self::Return,
            6 => Self::Constant,
            _ => return None,
        })
    }

    /// How many operands a node of this kind carries (`None`: a call's
    /// arguments, any number).
    pub fn arity(self) -> Option<usize> {
        match self {
            Self::Statement => None,
            Self::If => Some(2),
            Self::Goto | Self::Switch => Some(1),
            Self::End | Self::Label | Self::Return | Self::Constant => Some(0),
        }
    }
}

/// An `if`'s comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Less = 0,
    Equal = 1,
    Greater = 2,
    LessEqual = 3,
    GreaterEqual = 4,
    NotEqual = 5,
}

impl Relation {
    pub const ALL: [Relation; 6] = [
        Self::Less,
        Self::Equal,
        Self::Greater,
        Self::LessEqual,
        Self::GreaterEqual,
        Self::NotEqual,
    ];

    pub fn from_word(word: i32) -> Option<Self> {
        usize::try_from(word)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// The operator as the disassembly prints it.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Less => "<",
            Self::Equal => "==",
            Self::Greater => ">",
            Self::LessEqual => "<=",
            Self::GreaterEqual => ">=",
            Self::NotEqual => "!=",
        }
    }

    /// The relation an operator names.
    pub fn from_symbol(symbol: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.symbol() == symbol)
    }

    /// Compares two values of one ordered type.
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Self::Less => a < b,
            Self::Equal => a == b,
            Self::Greater => a > b,
            Self::LessEqual => a <= b,
            Self::GreaterEqual => a >= b,
            Self::NotEqual => a != b,
        }
    }
}

/// A node decoded: what the executor does with it. Variable, node, handler
/// and formula indices are as stored (non-negative); whether they fall
/// inside the variable set, the handler or the formula set is checked
/// against those ([`Script::check_against`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op<'a> {
    /// `[dest =] fn<function>(args...)`.
    Call {
        function: u32,
        dest: Option<u32>,
        args: &'a [i32],
    },
    /// `dest = source` (a variable).
    Copy { dest: u32, source: u32 },
    /// `dest = formula <formula>` of the script's `.fml`.
    Formula { dest: u32, formula: u32 },
    /// `if a <relation> b`: opens a block.
    If { relation: Relation, a: u32, b: u32 },
    /// Closes the innermost block.
    End,
    /// A jump target; does nothing.
    Label,
    /// Continue at node `node` of this handler.
    Goto { node: u32 },
    /// Continue at node 0 of handler `handler`.
    Switch { handler: u32 },
    /// Stop the handler.
    Return,
    /// `dest = value`, whatever the condition.
    Constant { dest: u32, value: u32 },
}

/// Why a node does not decode: what was expected, what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeFault {
    pub expected: String,
    pub found: String,
}

fn fault(expected: impl Into<String>, found: impl std::fmt::Display) -> NodeFault {
    NodeFault {
        expected: expected.into(),
        found: found.to_string(),
    }
}

/// A stored index word: non-negative.
fn index(word: i32, what: &str) -> Result<u32, NodeFault> {
    u32::try_from(word).map_err(|_| fault(format!("{what}: an index (0 or more)"), word))
}

/// An optional index word: −1 for none.
fn optional(word: i32, what: &str) -> Result<Option<u32>, NodeFault> {
    if word == NONE {
        Ok(None)
    } else {
        index(word, what).map(Some)
    }
}

impl Node {
    /// A node of `kind` with every head word −1, the relation word of a
    /// non-`if` and no operands or trailer.
    pub fn new(kind: NodeKind) -> Self {
        Self {
            function: NONE,
            dest: NONE,
            source: NONE,
            kind: kind as i32,
            relation: NO_RELATION,
            operands: Vec::new(),
            trailer: NONE,
        }
    }

    /// Decodes the node as the executor reads it.
    pub fn op(&self) -> Result<Op<'_>, NodeFault> {
        let kind =
            NodeKind::from_word(self.kind).ok_or_else(|| fault("a node kind -1..6", self.kind))?;
        if kind != NodeKind::If && self.relation != NO_RELATION {
            return Err(fault("relation 6 outside an if", self.relation));
        }
        if let Some(n) = kind.arity()
            && self.operands.len() != n
        {
            return Err(fault(
                format!("{n} operand(s) on a {kind:?} node"),
                self.operands.len(),
            ));
        }
        let operand = |i: usize, what: &str| index(self.operands[i], what);
        Ok(match kind {
            NodeKind::Statement => self.statement()?,
            NodeKind::If => Op::If {
                relation: Relation::from_word(self.relation)
                    .ok_or_else(|| fault("a relation 0..5", self.relation))?,
                a: operand(0, "first operand")?,
                b: operand(1, "second operand")?,
            },
            NodeKind::End => Op::End,
            NodeKind::Label => Op::Label,
            NodeKind::Goto => Op::Goto {
                node: operand(0, "goto target")?,
            },
            NodeKind::Switch => Op::Switch {
                handler: operand(0, "switch target")?,
            },
            NodeKind::Return => Op::Return,
            NodeKind::Constant => Op::Constant {
                dest: index(self.dest, "constant destination")?,
                value: self.source as u32,
            },
        })
    }

    /// A kind −1 node: a call when `head[0]` is set, a copy when `head[2]`
    /// is, else a formula.
    fn statement(&self) -> Result<Op<'_>, NodeFault> {
        if self.function != NONE {
            for (i, &a) in self.operands.iter().enumerate() {
                index(a, &format!("argument {i}"))?;
            }
            return Ok(Op::Call {
                function: index(self.function, "function slot")?,
                dest: optional(self.dest, "call destination")?,
                args: &self.operands,
            });
        }
        if !self.operands.is_empty() {
            return Err(fault(
                "no operands on a copy or formula statement",
                self.operands.len(),
            ));
        }
        let dest = index(self.dest, "statement destination")?;
        if self.source != NONE {
            return Ok(Op::Copy {
                dest,
                source: index(self.source, "copied variable")?,
            });
        }
        Ok(Op::Formula {
            dest,
            formula: index(self.trailer, "formula index")?,
        })
    }

    /// Stored size in bytes.
    fn size(&self) -> usize {
        NODE_FIXED_BYTES + 4 * self.operands.len()
    }
}

impl Handler {
    /// A handler named `name` at position `index` with no nodes.
    pub fn new(name: &str, index: i32) -> Self {
        Self {
            name: name.as_bytes().to_vec(),
            terminator: 0,
            index,
            nodes: Vec::new(),
        }
    }

    /// The name for display and lookup (lossy UTF-8).
    pub fn name(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }

    /// Stored size in bytes.
    fn size(&self) -> usize {
        HANDLER_FIXED_BYTES + self.name.len() + self.nodes.iter().map(Node::size).sum::<usize>()
    }
}

/// Where a handler or node sits in the file, for errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub handler: usize,
    /// `None`: the handler record itself.
    pub node: Option<usize>,
    pub offset: u64,
}

impl Script {
    /// A script for this engine's function table, with no handlers.
    pub fn new() -> Self {
        Self {
            table_len: FUNCTION_TABLE_LEN,
            handlers: Vec::new(),
        }
    }

    /// Reads the structure of a script: every count within the bytes that
    /// remain, every word kept raw, nothing after the last handler.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let table_len = c.i32()?;
        let count = count(&mut c, HANDLER_FIXED_BYTES, "handler count")?;
        let mut handlers = Vec::with_capacity(count);
        for _ in 0..count {
            handlers.push(read_handler(&mut c)?);
        }
        c.expect_end()?;
        Ok(Self {
            table_len,
            handlers,
        })
    }

    /// The script's bytes (byte-identical to what [`Script::parse`] read).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out =
            Vec::with_capacity(8 + self.handlers.iter().map(Handler::size).sum::<usize>());
        put(&mut out, self.table_len);
        put(&mut out, length(self.handlers.len(), "handler count")?);
        for h in &self.handlers {
            put(&mut out, length(h.name.len(), "handler name length")?);
            out.extend_from_slice(&h.name);
            out.push(h.terminator);
            put(&mut out, h.index);
            put(&mut out, length(h.nodes.len(), "node count")?);
            for n in &h.nodes {
                for w in [n.function, n.dest, n.source, n.kind, n.relation] {
                    put(&mut out, w);
                }
                put(&mut out, length(n.operands.len(), "operand count")?);
                for &w in &n.operands {
                    put(&mut out, w);
                }
                put(&mut out, n.trailer);
            }
        }
        Ok(out)
    }

    /// The handler named `name` (exact bytes), and its position.
    pub fn handler(&self, name: &str) -> Option<(usize, &Handler)> {
        self.handlers
            .iter()
            .enumerate()
            .find(|(_, h)| h.name == name.as_bytes())
    }

    /// The file offset of every handler record and node, in file order.
    pub fn places(&self) -> Vec<Place> {
        let mut out = Vec::new();
        let mut offset = 8u64;
        for (h, handler) in self.handlers.iter().enumerate() {
            out.push(Place {
                handler: h,
                node: None,
                offset,
            });
            offset += (HANDLER_FIXED_BYTES + handler.name.len()) as u64;
            for (n, node) in handler.nodes.iter().enumerate() {
                out.push(Place {
                    handler: h,
                    node: Some(n),
                    offset,
                });
                offset += node.size() as u64;
            }
        }
        out
    }

    /// The strict checks of the script on its own: the function-table
    /// length ([`Problem::VersionMismatch`]), each handler's terminator and
    /// index, and each node's kind, relation, arity and jump targets. Every
    /// finding is returned, in file order, with its offset.
    pub fn check(&self) -> Vec<FormatError> {
        let mut out = Vec::new();
        if self.table_len != FUNCTION_TABLE_LEN {
            out.push(FormatError::new(
                FORMAT,
                0,
                Problem::VersionMismatch {
                    expected: format!("a function table of {FUNCTION_TABLE_LEN}"),
                    found: self.table_len.to_string(),
                },
            ));
        }
        for place in self.places() {
            let handler = &self.handlers[place.handler];
            let at = |expected: String, found: &dyn std::fmt::Display| {
                FormatError::invalid(FORMAT, place.offset, expected, found)
                    .in_entry(place.handler, handler.name())
            };
            let Some(n) = place.node else {
                if handler.terminator != 0 {
                    out.push(at("name terminator 0".into(), &handler.terminator));
                }
                if usize::try_from(handler.index) != Ok(place.handler) {
                    out.push(at(
                        format!("handler index {}", place.handler),
                        &handler.index,
                    ));
                }
                continue;
            };
            let finding = match handler.nodes[n].op() {
                Err(f) => Some((f.expected, f.found)),
                Ok(Op::Goto { node }) if node as usize >= handler.nodes.len() => Some((
                    format!("node {n}: a goto within the {} nodes", handler.nodes.len()),
                    node.to_string(),
                )),
                Ok(Op::Switch { handler: h }) if h as usize >= self.handlers.len() => Some((
                    format!(
                        "node {n}: a switch to one of the {} handlers",
                        self.handlers.len()
                    ),
                    h.to_string(),
                )),
                Ok(_) => None,
            };
            if let Some((expected, found)) = finding {
                let expected = if expected.starts_with("node ") {
                    expected
                } else {
                    format!("node {n}: {expected}")
                };
                out.push(at(expected, &found));
            }
        }
        out
    }
}

impl Default for Script {
    fn default() -> Self {
        Self::new()
    }
}

fn read_handler(c: &mut Cursor) -> Result<Handler> {
    let name_len = count(c, 1, "handler name length")?;
    let name = c.bytes(name_len)?.to_vec();
    let terminator = c.u8()?;
    let index = c.i32()?;
    let nodes = count(c, NODE_FIXED_BYTES, "node count")?;
    let mut list = Vec::with_capacity(nodes);
    for _ in 0..nodes {
        let [function, dest, source, kind, relation] =
            [c.i32()?, c.i32()?, c.i32()?, c.i32()?, c.i32()?];
        let n = count(c, 4, "operand count")?;
        let mut operands = Vec::with_capacity(n);
        for _ in 0..n {
            operands.push(c.i32()?);
        }
        list.push(Node {
            function,
            dest,
            source,
            kind,
            relation,
            operands,
            trailer: c.i32()?,
        });
    }
    Ok(Handler {
        name,
        terminator,
        index,
        nodes: list,
    })
}

/// A stored count: non-negative, and `element_size` bytes each within
/// what remains.
fn count(c: &mut Cursor, element_size: usize, what: &str) -> Result<usize> {
    let at = c.pos();
    let word = c.i32()?;
    let n =
        u64::try_from(word).map_err(|_| c.invalid_at(at, format!("{what}: 0 or more"), word))?;
    c.checked_count(n, element_size, what)
}

fn put(out: &mut Vec<u8>, word: i32) {
    out.extend_from_slice(&word.to_le_bytes());
}

/// A length as the stored i32 word.
fn length(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| FormatError::overflow(FORMAT, 0, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: NodeKind, operands: &[i32]) -> Node {
        Node {
            operands: operands.to_vec(),
            ..Node::new(kind)
        }
    }

    #[test]
    fn a_name_of_odd_length_leaves_the_rest_unaligned_and_round_trips() {
        let mut s = Script::new();
        let mut h = Handler::new("Init1", 0);
        h.nodes.push(node(NodeKind::Return, &[]));
        s.handlers.push(h);
        let bytes = s.to_bytes().unwrap();
        // 8 header + 4 length + 5 name + 1 terminator + 4 index + 4 count + 28 node.
        assert_eq!(bytes.len(), 54);
        assert_eq!(&bytes[12..17], b"Init1");
        assert_eq!(Script::parse(&bytes).unwrap(), s);
        assert_eq!(s.places()[1].offset, 26);
    }

    #[test]
    fn each_kind_decodes_with_its_arity() {
        let mut call = node(NodeKind::Statement, &[3, 4]);
        call.function = 15;
        call.dest = 30;
        assert_eq!(
            call.op().unwrap(),
            Op::Call {
                function: 15,
                dest: Some(30),
                args: &[3, 4]
            }
        );
        let mut copy = Node::new(NodeKind::Statement);
        copy.dest = 30;
        copy.source = 31;
        assert_eq!(
            copy.op().unwrap(),
            Op::Copy {
                dest: 30,
                source: 31
            }
        );
        let mut formula = Node::new(NodeKind::Statement);
        formula.dest = 30;
        formula.trailer = 2;
        assert_eq!(
            formula.op().unwrap(),
            Op::Formula {
                dest: 30,
                formula: 2
            }
        );
        let mut constant = Node::new(NodeKind::Constant);
        constant.dest = 40;
        constant.source = 0x8000_0003u32 as i32;
        assert_eq!(
            constant.op().unwrap(),
            Op::Constant {
                dest: 40,
                value: 0x8000_0003
            }
        );
        assert_eq!(node(NodeKind::End, &[]).op().unwrap(), Op::End);
        assert_eq!(node(NodeKind::Label, &[]).op().unwrap(), Op::Label);
        assert_eq!(node(NodeKind::Return, &[]).op().unwrap(), Op::Return);
        assert_eq!(
            node(NodeKind::Goto, &[7]).op().unwrap(),
            Op::Goto { node: 7 }
        );
        assert_eq!(
            node(NodeKind::Switch, &[2]).op().unwrap(),
            Op::Switch { handler: 2 }
        );
        for relation in Relation::ALL {
            let mut cmp = node(NodeKind::If, &[1, 2]);
            cmp.relation = relation as i32;
            assert_eq!(
                cmp.op().unwrap(),
                Op::If {
                    relation,
                    a: 1,
                    b: 2
                }
            );
        }
    }

    #[test]
    fn a_bad_node_names_what_it_expected() {
        let f = node(NodeKind::If, &[1]).op().unwrap_err();
        assert_eq!(f.expected, "2 operand(s) on a If node");
        let mut bad_relation = node(NodeKind::If, &[1, 2]);
        bad_relation.relation = 6;
        assert_eq!(bad_relation.op().unwrap_err().expected, "a relation 0..5");
        let mut stray = node(NodeKind::End, &[]);
        stray.relation = 1;
        assert_eq!(stray.op().unwrap_err().expected, "relation 6 outside an if");
        let mut kind = Node::new(NodeKind::End);
        kind.kind = 7;
        assert_eq!(kind.op().unwrap_err().found, "7");
        let nothing = Node::new(NodeKind::Statement);
        assert_eq!(
            nothing.op().unwrap_err().expected,
            "statement destination: an index (0 or more)"
        );
    }

    #[test]
    fn relations_compare_as_their_symbols_say() {
        let table = [
            (Relation::Less, [true, false, false]),
            (Relation::Equal, [false, true, false]),
            (Relation::Greater, [false, false, true]),
            (Relation::LessEqual, [true, true, false]),
            (Relation::GreaterEqual, [false, true, true]),
            (Relation::NotEqual, [true, false, true]),
        ];
        for (r, want) in table {
            assert_eq!([r.holds(1, 2), r.holds(2, 2), r.holds(3, 2)], want, "{r:?}");
            assert_eq!(Relation::from_symbol(r.symbol()), Some(r));
            assert_eq!(Relation::from_word(r as i32), Some(r));
        }
    }
}

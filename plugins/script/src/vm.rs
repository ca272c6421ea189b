//! The node executor (openparkan `docs/15-behaviour.md`, "The kind",
//! "Blocks", "The jumps"; docs/facts.md "Scripts"): a handler runs node by
//! node from 0.
//!
//! - A statement calls a function slot, copies a variable or stores a
//!   formula's value; an `if` compares two variables (unsigned `DWORD`
//!   compare when the first is a `DWORD`, else float) and opens a block
//!   whose condition is ANDed with the enclosing one; `end` closes it
//!   (never below zero); at most [`MAX_BLOCKS`] are open.
//! - Statements, gotos, switches and returns act only when the innermost
//!   condition holds; a constant lands whatever the condition; a label
//!   does nothing. A goto, switch or return that acts clears every open
//!   block.
//! - A handler ends at `return` or past its last node. A run that executes
//!   more than [`STEP_LIMIT`] nodes (a goto loop) is a fault.
//!
//! Values move by the destination's type: a float destination takes a
//! `DWORD` as its number, a `DWORD` destination takes a float truncated
//! toward zero (negative values wrap, as a 32-bit store does).

use iron3d_formats::script::Bundle;
use iron3d_formats::script::fml::EvalError;
use iron3d_formats::script::scr::Op;
use iron3d_formats::script::varset::VarType;
use std::sync::Arc;

/// Condition bytes of the interpreter: the deepest nesting of blocks.
pub const MAX_BLOCKS: usize = 32;

/// The most nodes one handler run executes.
// STAND-IN: 100,000, a guard against a script that never returns (docs/15
// gives the executor no limit); settled by a retail script's longest run.
pub const STEP_LIMIT: usize = 100_000;

/// A value a function or formula gives, before it is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Dword(u32),
    Float(f32),
}

impl Value {
    /// As a `DWORD`: a float truncated toward zero, negatives wrapping.
    pub fn dword(self) -> u32 {
        match self {
            Value::Dword(d) => d,
            Value::Float(f) => f as i64 as u32,
        }
    }

    /// As a float.
    pub fn float(self) -> f32 {
        match self {
            Value::Dword(d) => d as f32,
            Value::Float(f) => f,
        }
    }
}

/// The variables of one SuperAI: each a type and its 32 bits.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Variables {
    types: Vec<VarType>,
    bits: Vec<u32>,
}

impl Variables {
    /// Every variable of `bundle` at its declared default.
    pub fn new(bundle: &Bundle) -> Self {
        let vars = bundle.vars.vars();
        Self {
            types: vars.iter().map(|v| v.ty).collect(),
            bits: vars.iter().map(|v| v.default.bits()).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether these are `bundle`'s variables: one value each, of its
    /// declared type (a loaded save's, before its brain runs them).
    pub fn fit(&self, bundle: &Bundle) -> bool {
        let types = bundle.vars.vars().iter().map(|v| v.ty);
        self.bits.len() == self.types.len() && self.types.iter().copied().eq(types)
    }

    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The stored bits, in declaration order (the state hash and saves).
    pub fn bits(&self) -> &[u32] {
        &self.bits
    }

    fn check(&self, i: u32) -> Result<usize, String> {
        let i = i as usize;
        if i < self.bits.len() {
            Ok(i)
        } else {
            Err(format!(
                "variable {i} is past the {} of varset.var",
                self.bits.len()
            ))
        }
    }

    /// Variable `i` as it is stored.
    pub fn get(&self, i: u32) -> Result<Value, String> {
        let i = self.check(i)?;
        let b = self.bits[i];
        Ok(match self.types[i] {
            VarType::Float => Value::Float(f32::from_bits(b)),
            VarType::Int if (b as i32) < 0 => Value::Float(b as i32 as f32),
            VarType::Bool => Value::Dword(u32::from(b != 0)),
            VarType::Dword | VarType::Int => Value::Dword(b),
            VarType::Void | VarType::Str => Value::Dword(0),
        })
    }

    /// Whether variable `i` holds a `DWORD` (the unsigned compare).
    pub fn is_dword(&self, i: u32) -> Result<bool, String> {
        Ok(self.types[self.check(i)?] == VarType::Dword)
    }

    /// Stores `value` into variable `i` by its type.
    pub fn set(&mut self, i: u32, value: Value) -> Result<(), String> {
        let i = self.check(i)?;
        self.bits[i] = match self.types[i] {
            VarType::Float => value.float().to_bits(),
            VarType::Bool => u32::from(value.dword() != 0),
            VarType::Void | VarType::Str => return Ok(()),
            VarType::Dword | VarType::Int => value.dword(),
        };
        Ok(())
    }
}

/// What a function slot did.
#[derive(Debug, Clone, PartialEq)]
pub enum CallError {
    /// The slot is not implemented: the call gives `ERROR`, logged once.
    Unimplemented,
    /// The call cannot go on: the handler stops with this fault.
    Fault(String),
}

/// The function table and everything a call reaches besides the
/// variables: the ECS side of one SuperAI's run.
pub trait Host {
    /// Calls slot `function` with the operands `args`; the result (if any)
    /// goes to the node's destination.
    fn call(
        &mut self,
        vars: &mut Variables,
        function: u32,
        args: &[i32],
    ) -> Result<Option<Value>, CallError>;

    /// `ERROR` as the variable set names it.
    fn error_word(&self) -> u32;

    /// A call that reached an unimplemented slot (handler, node, slot).
    fn unimplemented(&mut self, handler: usize, node: usize, function: u32);
}

/// Where a handler run stopped on a fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub handler: usize,
    pub node: usize,
    pub cause: String,
}

/// Runs handler `start` of `bundle` over `vars` to its end.
pub fn run(
    bundle: &Arc<Bundle>,
    vars: &mut Variables,
    start: usize,
    host: &mut dyn Host,
) -> Result<(), Fault> {
    let script = &bundle.script;
    let mut handler = start;
    let mut node = 0usize;
    let mut blocks: Vec<bool> = Vec::with_capacity(MAX_BLOCKS);
    let mut steps = 0usize;
    loop {
        let Some(h) = script.handlers.get(handler) else {
            return Err(Fault {
                handler,
                node,
                cause: format!("no handler {handler} in the script"),
            });
        };
        let Some(n) = h.nodes.get(node) else {
            return Ok(());
        };
        steps += 1;
        let fault = move |cause: String| Fault {
            handler,
            node,
            cause,
        };
        if steps > STEP_LIMIT {
            return Err(fault(format!("more than {STEP_LIMIT} nodes in one run")));
        }
        let op = n
            .op()
            .map_err(|f| fault(format!("expected {}, found {}", f.expected, f.found)))?;
        let live = blocks.last().copied().unwrap_or(true);
        let mut next = node + 1;
        match op {
            Op::Constant { dest, value } => vars.set(dest, Value::Dword(value)).map_err(fault)?,
            Op::Label => {}
            Op::End => {
                blocks.pop();
            }
            Op::If { relation, a, b } => {
                if blocks.len() == MAX_BLOCKS {
                    return Err(fault(format!("more than {MAX_BLOCKS} open blocks")));
                }
                let holds = if vars.is_dword(a).map_err(&fault)? {
                    let (x, y) = (vars.get(a).map_err(&fault)?, vars.get(b).map_err(&fault)?);
                    relation.holds(x.dword(), y.dword())
                } else {
                    let (x, y) = (vars.get(a).map_err(&fault)?, vars.get(b).map_err(&fault)?);
                    relation.holds(x.float(), y.float())
                };
                blocks.push(live && holds);
            }
            _ if !live => {}
            Op::Call {
                function,
                dest,
                args,
            } => match host.call(vars, function, args) {
                Ok(result) => {
                    if let (Some(d), Some(v)) = (dest, result) {
                        vars.set(d, v).map_err(fault)?;
                    }
                }
                Err(CallError::Unimplemented) => {
                    host.unimplemented(handler, node, function);
                    if let Some(d) = dest {
                        vars.set(d, Value::Dword(host.error_word()))
                            .map_err(fault)?;
                    }
                }
                Err(CallError::Fault(cause)) => {
                    return Err(fault(format!("function {function}: {cause}")));
                }
            },
            Op::Copy { dest, source } => {
                let v = vars.get(source).map_err(&fault)?;
                vars.set(dest, v).map_err(fault)?;
            }
            Op::Formula { dest, formula } => {
                let f = bundle
                    .formulas
                    .formulas()
                    .get(formula as usize)
                    .ok_or_else(|| {
                        fault(format!(
                            "formula {formula} is past the {} of the .fml",
                            bundle.formulas.formulas().len()
                        ))
                    })?;
                let value = f
                    .expr
                    .eval(&|name| {
                        let i = bundle.vars.index_of(name)?;
                        vars.get(i).ok().map(Value::float)
                    })
                    .map_err(|e: EvalError| {
                        fault(format!("formula {formula} `{}`: {e}", f.text))
                    })?;
                vars.set(dest, Value::Float(value)).map_err(fault)?;
            }
            Op::Goto { node: target } => {
                blocks.clear();
                next = target as usize;
            }
            Op::Switch { handler: target } => {
                blocks.clear();
                handler = target as usize;
                next = 0;
            }
            Op::Return => return Ok(()),
        }
        node = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::script::asm::assemble;
    use iron3d_formats::script::varset::{VarType, Varset};

    /// Records calls: slot 1 answers its first operand's value; slot 2
    /// logs; slot 3 is unimplemented; slot 4 faults.
    #[derive(Default)]
    struct Fake {
        log: Vec<u32>,
        unimplemented: Vec<(usize, usize, u32)>,
    }

    impl Host for Fake {
        fn call(
            &mut self,
            vars: &mut Variables,
            function: u32,
            args: &[i32],
        ) -> Result<Option<Value>, CallError> {
            let first = || vars.get(args[0] as u32).unwrap();
            match function {
                1 => Ok(Some(first())),
                2 => {
                    self.log.push(first().dword());
                    Ok(None)
                }
                3 => Err(CallError::Unimplemented),
                _ => Err(CallError::Fault("broken".into())),
            }
        }
        fn error_word(&self) -> u32 {
            u32::MAX
        }
        fn unimplemented(&mut self, handler: usize, node: usize, function: u32) {
            self.unimplemented.push((handler, node, function));
        }
    }

    fn bundle(source: &str) -> Arc<Bundle> {
        let mut decls: Vec<(VarType, String, String)> = (0..10)
            .map(|i| (VarType::Dword, format!("d{i}"), i.to_string()))
            .collect();
        decls.extend([
            (VarType::Dword, "ERROR".into(), "0xffffffff".into()),
            (VarType::Float, "fHalf".into(), "0.5".into()),
            (VarType::Float, "fMinus".into(), "-2".into()),
            (VarType::Dword, "dA".into(), "0".into()),
            (VarType::Float, "fA".into(), "0".into()),
        ]);
        let refs: Vec<(VarType, &str, &str)> = decls
            .iter()
            .map(|(t, n, v)| (*t, n.as_str(), v.as_str()))
            .collect();
        let vars = Varset::build(&refs).unwrap();
        let (script, formulas) = assemble(source, &vars).unwrap();
        Arc::new(Bundle {
            script,
            formulas,
            vars,
            files: Default::default(),
        })
    }

    /// Runs handler 0 and gives what slot 2 logged.
    fn logged(source: &str) -> (Result<(), Fault>, Vec<u32>, Variables) {
        let b = bundle(source);
        let mut vars = Variables::new(&b);
        let mut host = Fake::default();
        let r = run(&b, &mut vars, 0, &mut host);
        (r, host.log, vars)
    }

    #[test]
    fn each_relation_compares_dwords_unsigned_and_floats_as_floats() {
        // ERROR is above every DWORD; -2.0 below 0.5 as floats.
        let cases = [
            ("d1 < d2", true),
            ("d2 < d1", false),
            ("d1 == d1", true),
            ("ERROR > d9", true),
            ("d1 <= d1", true),
            ("d2 >= d3", false),
            ("d1 != d2", true),
            ("fMinus < fHalf", true),
            ("fHalf > fMinus", true),
            ("fMinus == fMinus", true),
            ("fHalf <= fMinus", false),
            ("fHalf != fHalf", false),
        ];
        for (cmp, want) in cases {
            let source = format!("handler H\n  if {cmp}\n    fn2(d1)\n  end\n");
            let (r, log, _) = logged(&source);
            r.unwrap();
            assert_eq!(log == [1], want, "{cmp}");
        }
    }

    #[test]
    fn blocks_and_their_conditions_constants_land_and_jumps_clear_blocks() {
        let source = "handler H
  if d1 == d2
    fn2(d1)
    dA = 7
    if d1 == d1
      fn2(d2)
    end
  end
  fn2(dA)
  end
  end
  fn2(d3)
  if d1 == d2
    goto skipped
  end
  if d1 == d1
    if d2 == d2
      goto out
    end
  end
  label skipped
  fn2(d4)
  label out
  fn2(d5)
  switch Other
  fn2(d6)
handler Other
  fn2(d7)
  if d1 == d1
    return
  end
  fn2(d8)
";
        let (r, log, vars) = logged(source);
        r.unwrap();
        // The false block's calls do not run, its constant lands; spare
        // `end`s clamp at zero; a taken goto skips; the switch does not
        // come back; return stops.
        assert_eq!(log, [7, 3, 5, 7]);
        assert_eq!(vars.get(13).unwrap(), Value::Dword(7));
    }

    #[test]
    fn values_move_by_the_destination_type() {
        let source = "handler H
  dA = fMinus
  fA = d3
  dA = fn1(fHalf)
  fn2(dA)
  fA = fA * 2 + 1
  dA = fA / 2
  fn2(dA)
";
        let (r, log, vars) = logged(source);
        r.unwrap();
        assert_eq!(log, [0, 3]);
        assert_eq!(vars.get(14).unwrap(), Value::Float(7.0));
    }

    #[test]
    fn faults_stop_the_handler_and_name_the_node() {
        let (r, log, _) = logged("handler H\n  fn2(d1)\n  fA = fHalf / d0\n  fn2(d2)\n");
        let f = r.unwrap_err();
        assert_eq!((f.handler, f.node), (0, 1));
        assert!(f.cause.contains("division by zero"), "{f:?}");
        assert_eq!(log, [1]);
        let (r, _, _) = logged("handler H\n  fn4(d1)\n");
        assert_eq!(r.unwrap_err().cause, "function 4: broken");
        let (r, _, _) = logged("handler H\n  label top\n  goto top\n");
        assert!(r.unwrap_err().cause.contains("more than"));
        let deep = format!("handler H\n{}", "  if d1 == d1\n".repeat(MAX_BLOCKS + 1));
        let (r, _, _) = logged(&deep);
        assert_eq!(r.unwrap_err().node, MAX_BLOCKS);
    }

    #[test]
    fn an_unimplemented_slot_gives_error_and_the_handler_goes_on() {
        let b = bundle("handler H\n  dA = fn3(d1)\n  fn2(dA)\n");
        let mut vars = Variables::new(&b);
        let mut host = Fake::default();
        run(&b, &mut vars, 0, &mut host).unwrap();
        assert_eq!(host.log, [u32::MAX]);
        assert_eq!(host.unimplemented, [(0, 0, 3)]);
    }
}

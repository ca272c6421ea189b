//! Mutation tests of the mission-script readers (`.scr`, `varset.var`,
//! `.fml`): thousands of corrupted variants of a valid file — truncation at
//! every offset, flipped bytes, words pushed out of range — give an error or
//! a file that writes back byte-identical, never a panic, with peak heap
//! linear in the input; whatever reads is also checked, disassembled and
//! (formulas) evaluated without a panic.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::script::asm::assemble;
use iron3d_formats::script::fml::FormulaSet;
use iron3d_formats::script::scr::Script;
use iron3d_formats::script::varset::{VarType, Varset};
use iron3d_formats::script::{check_against, dis};

/// Binary: 16 bytes of heap per input byte plus 64 KiB (a node of 28
/// bytes keeps a 56-byte struct).
fn binary_budget(len: usize) -> usize {
    16 * len + 64 * 1024
}

/// Text: a declaration or formula per line keeps a small struct and tree.
fn text_budget(len: usize) -> usize {
    512 * len + 64 * 1024
}

fn vars() -> Varset {
    Varset::build(&[
        (VarType::Float, "f0", "0"),
        (VarType::Float, "f1", "1"),
        (VarType::Dword, "d0", "0"),
        (VarType::Dword, "d1", "1"),
        (VarType::Dword, "ERROR", "0xffffffff"),
        (VarType::Dword, "dTemp", "0"),
        (VarType::Float, "fTemp", "0"),
        (VarType::Dword, "dHero", "7"),
    ])
    .unwrap()
}

const SOURCE: &str = "handler Init
  dHero = 7
  dTemp = fn59(d1)
  return
handler Mission
  dTemp = fn52(dHero)
  if dTemp == ERROR
    fn30(d1, d1)
    goto out
  end
  fTemp = fTemp * 2 + N(fTemp) - -1
  dTemp = d0
  label out
  switch Init
handler Mech_GeneratorFound
  return
handler Fort_Task_Complete
  return
";

#[test]
fn scr_survives_mutation() {
    let v = vars();
    let (script, fml) = assemble(SOURCE, &v).unwrap();
    let valid = script.to_bytes().unwrap();
    let rejected = support::assert_robust(&valid, None, binary_budget, |d| {
        let s = Script::parse(d)?;
        assert_eq!(s.to_bytes().unwrap(), d, "read but not written back");
        let _ = s.check();
        let _ = check_against(&s, &v, Some(&fml));
        let _ = dis::listing(&s, Some(&v), Some(&fml)).text();
        Ok::<_, iron3d_formats::error::FormatError>(())
    });
    assert!(rejected > valid.len(), "only {rejected} rejected");
}

#[test]
fn varset_survives_mutation() {
    let valid = vars().to_bytes();
    support::assert_robust(&valid, None, text_budget, |d| {
        let v = Varset::parse(d)?;
        assert_eq!(v.to_bytes(), d);
        let _ = v.duplicates();
        Ok::<_, iron3d_formats::error::FormatError>(())
    });
}

#[test]
fn fml_survives_mutation() {
    let valid = FormulaSet::build(&[
        "fTemp + 0.00001",
        "20 + 55*fDifficulty",
        "A(N(fTemp) - S(-fTemp)) ^ 2 / (B(fTemp) | !fTemp & 1)",
    ])
    .unwrap()
    .to_bytes();
    support::assert_robust(&valid, None, text_budget, |d| {
        let f = FormulaSet::parse(d)?;
        assert_eq!(f.to_bytes(), d);
        for formula in f.formulas() {
            let _ = formula.expr.eval(&|_| Some(0.5));
            let _ = formula.expr.to_string();
        }
        Ok::<_, iron3d_formats::error::FormatError>(())
    });
}

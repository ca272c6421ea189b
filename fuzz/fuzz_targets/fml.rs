#![no_main]
//! `.fml`: a file that reads writes back to the same bytes; every formula
//! evaluates or fails without a panic, and prints to text that reads back
//! to the same tree.
use iron3d_formats::script::fml::{Expr, FormulaSet};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(set) = FormulaSet::parse(data) {
        assert_eq!(set.to_bytes(), data);
        for f in set.formulas() {
            let _ = f.expr.eval(&|_| Some(1.5));
            if let Ok(back) = Expr::parse(&f.expr.to_string()) {
                assert_eq!(back, f.expr);
            }
        }
    }
});

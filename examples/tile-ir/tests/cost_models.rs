//! The inliner cost models (`nvpass_core::inline_cost`, read-only over
//! `IrView`) give the same verdict for every call site of the same program
//! held by the tile IR and by the reference IR.

mod common;

use common::parse_ll;
use common::program::{tile, LL};
use nvpass_core::ir::{InstId, IrView, Opcode};

/// Every call site of `k`, in layout order.
fn calls_of_k<M: IrView>(m: &M) -> Vec<InstId> {
    let k = m.func_by_name("k").unwrap();
    m.blocks(k)
        .flat_map(|b| m.insts(b).collect::<Vec<_>>())
        .filter(|&i| m.opcode(i) == Opcode::Call)
        .collect()
}

/// The four cost models' verdicts on every call of `k`.
fn verdicts<M: IrView>(m: &M) -> Vec<String> {
    use nvpass_core::inline_cost as ic;
    let (a, b) = (ic::ModelAParams::default(), ic::ModelBParams::default());
    calls_of_k(m)
        .into_iter()
        .map(|c| {
            let callee = ic::direct_callee(m, c).unwrap();
            format!(
                "{}: A {:?} B {:?} C {:?} D {}",
                m.func_name(callee),
                ic::model_a_cost(m, c, &a),
                ic::model_b_cost(m, c, &b),
                ic::model_c_cost(m, c, &b, true, 2),
                ic::model_d_bonus(m, callee),
            )
        })
        .collect()
}

#[test]
fn cost_models() {
    let (t, r) = (tile(), parse_ll(LL));
    let vt = verdicts(&t);
    assert_eq!(vt, verdicts(&r));
    assert_eq!(vt.len(), 5);
}

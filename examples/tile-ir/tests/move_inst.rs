//! `move_inst_before` on the tile IR: an op moves to another block of its
//! function, keeping its result and uses; terminators, block arguments and
//! ops of other functions are refused.

use nvpass_core::ir::{EditError, IrEdit, IrView};
use nvpass_example_tile_ir::{BinOp, CmpPred, FuncBuilder, FuncKind, Module, Visibility};

/// `f(x, y)`: `x < y` branches to `lt`, which returns `y - x`, else to `ge`,
/// which returns `x`. Returns the signature.
fn lt_ge(m: &mut Module) -> nvpass_example_tile_ir::Ty {
    let i32t = m.int_ty(32);
    let sig = m.func_ty(i32t, &[i32t, i32t]);
    let f = m.add_func("f", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(m, f);
    let (x, y) = (b.param(0), b.param(1));
    let c = b.cmp(CmpPred::Slt, x, y);
    let (lt, ge) = (b.block("lt", &[]), b.block("ge", &[]));
    b.cond_br(c, lt, &[], ge, &[]);
    b.switch_to(lt);
    let d = b.binary(BinOp::Sub, y, x);
    b.ret(Some(d));
    b.switch_to(ge);
    b.ret(Some(x));
    sig
}

#[test]
fn move_inst_before_moves_an_op_between_blocks() {
    let mut m = Module::new();
    let sig = lt_ge(&mut m);
    let g = m.add_func("g", sig, FuncKind::Device, Visibility::Private);
    let mut b = FuncBuilder::define(&mut m, g);
    let p = b.param(0);
    b.ret(Some(p));

    let fid = m.func_by_name("f").unwrap();
    let blocks: Vec<_> = m.blocks(fid).collect();
    let entry: Vec<_> = m.insts(blocks[0]).collect();
    let lt_insts: Vec<_> = m.insts(blocks[1]).collect();
    let (cmp, br) = (entry[0], entry[1]);
    let (sub, ret) = (lt_insts[0], lt_insts[1]);
    let gid = m.func_by_name("g").unwrap();
    let g_ret = m.insts(m.entry_block(gid).unwrap()).next().unwrap();

    assert_eq!(m.move_inst_before(sub, sub), Err(EditError::OutOfRange));
    assert_eq!(m.move_inst_before(ret, cmp), Err(EditError::TypeMismatch));
    assert_eq!(m.move_inst_before(sub, g_ret), Err(EditError::OutOfRange));
    assert_eq!(m.insts(blocks[1]).collect::<Vec<_>>(), [sub, ret]);

    m.move_inst_before(sub, br).unwrap();
    assert_eq!(m.insts(blocks[0]).collect::<Vec<_>>(), [cmp, sub, br]);
    assert_eq!(m.insts(blocks[1]).collect::<Vec<_>>(), [ret]);
    assert_eq!(m.inst_block(sub), blocks[0]);
    let r = m.inst_result(sub).unwrap();
    assert_eq!(m.inst_users(r).collect::<Vec<_>>(), [ret]);
}

/// The trait's default `next_inst` and `prev_inst` (the tile IR does not
/// override them) follow the order of `insts`.
#[test]
fn neighbors_follow_block_order() {
    let mut m = Module::new();
    lt_ge(&mut m);
    let fid = m.func_by_name("f").unwrap();
    let mut seen = 0;
    for blk in m.blocks(fid).collect::<Vec<_>>() {
        let insts: Vec<_> = m.insts(blk).collect();
        for (k, &i) in insts.iter().enumerate() {
            assert_eq!(m.next_inst(i), insts.get(k + 1).copied());
            assert_eq!(m.prev_inst(i), k.checked_sub(1).map(|p| insts[p]));
            seen += 1;
        }
    }
    assert_eq!(seen, 5);
}

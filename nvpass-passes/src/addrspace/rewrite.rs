//! Pointer conversions shared by `ipmsp` and `memspace-opt`: obtaining a
//! view of a pointer in another address space with as few `addrspacecast`s
//! as possible.

use hashbrown::HashMap;
use nvpass_core::ir::{
    ConstKind, EditError, FuncId, InstId, IrEdit, IrView, Opcode, ValueId, ValueKind,
};

/// Index (in [`IrView::operands`] order) of the pointer operand of a load,
/// store, `atomicrmw` or `cmpxchg`.
pub fn mem_ptr_index<M: IrView + ?Sized>(ir: &M, i: InstId) -> Option<usize> {
    match ir.opcode(i) {
        Opcode::Load | Opcode::AtomicRmw | Opcode::AtomicCmpXchg => Some(0),
        Opcode::Store => Some(1),
        _ => None,
    }
}

/// The address space of pointer type of `v`, if it is a pointer.
pub fn space_of<M: IrView + ?Sized>(ir: &M, v: ValueId) -> Option<u32> {
    ir.type_kind(ir.value_type(v)).ptr_addr_space()
}

/// The instruction before which code "right after the definition of `v`"
/// goes: after the phis of a phi's block, after the instruction otherwise,
/// after the leading allocas of the entry block for arguments. `None` for
/// constants and globals.
pub fn after_def<M: IrView + ?Sized>(ir: &M, v: ValueId) -> Option<InstId> {
    match ir.value_kind(v) {
        ValueKind::Argument { func, .. } => first_non_alloca(ir, func),
        ValueKind::Inst(i) => {
            // From `i` on, not from the top of the block: a long entry
            // block of allocas would make every lookup walk it.
            let is_phi = ir.opcode(i) == Opcode::Phi;
            let mut j = ir.next_inst(i)?;
            while is_phi && ir.opcode(j) == Opcode::Phi {
                j = ir.next_inst(j)?;
            }
            Some(j)
        }
        _ => None,
    }
}

fn first_non_alloca<M: IrView + ?Sized>(ir: &M, f: FuncId) -> Option<InstId> {
    let entry = ir.entry_block(f)?;
    ir.insts(entry)
        .find(|&j| !matches!(ir.opcode(j), Opcode::Alloca | Opcode::Phi))
}

/// The source of `v` if `v` is an `addrspacecast` instruction or constant
/// expression.
pub fn cast_source<M: IrView + ?Sized>(ir: &M, v: ValueId) -> Option<ValueId> {
    match ir.value_kind(v) {
        ValueKind::Inst(i) if ir.opcode(i) == Opcode::AddrSpaceCast => ir.operand(i, 0),
        ValueKind::Constant(ConstKind::Expr(Opcode::AddrSpaceCast)) => ir.const_operands(v).next(),
        _ => None,
    }
}

/// A cast of `v` to `ty` already sitting where [`Converter`] would put one:
/// in the run of allocas, phis and `addrspacecast`s that opens the entry
/// block (for arguments), or in the run of casts right after the
/// definition (for instructions). Reusing it keeps the passes idempotent.
fn existing_cast<M: IrView + ?Sized>(
    ir: &M,
    v: ValueId,
    ty: nvpass_core::ir::TypeId,
) -> Option<ValueId> {
    let (block, def) = match ir.value_kind(v) {
        ValueKind::Argument { func, .. } => (ir.entry_block(func)?, None),
        ValueKind::Inst(i) => (ir.inst_block(i), Some(i)),
        _ => return None,
    };
    // Any cast of the run may precede the one sought: casts of other
    // arguments, and the casts of entry allocas, which the converter places
    // right after each alloca, between the allocas and the argument casts.
    // So of the casts of `v` to `ty` in the block, those inside the run are
    // kept, and the first in the block (the fewest steps back) is the one.
    // Starting from the casts, not from the top of the block, keeps a long
    // run of allocas from being walked per lookup.
    ir.inst_users(v)
        .filter(|&c| {
            ir.opcode(c) == Opcode::AddrSpaceCast
                && ir.operand(c, 0) == Some(v)
                && ir.inst_block(c) == block
        })
        .filter_map(|c| {
            let r = ir.inst_result(c).filter(|&r| ir.value_type(r) == ty)?;
            Some((steps_back_over_run(ir, c, def)?, r))
        })
        .min_by_key(|&(steps, _)| steps)
        .map(|(_, r)| r)
}

/// How many instructions lie between `def` and `c`, when all of them are
/// allocas, phis or casts (`def` `None`: between the top of the block and
/// `c`); `None` when another instruction lies between.
fn steps_back_over_run<M: IrView + ?Sized>(
    ir: &M,
    c: InstId,
    def: Option<InstId>,
) -> Option<usize> {
    let mut steps = 0;
    let mut cur = ir.prev_inst(c);
    while cur != def {
        let j = cur?;
        if !matches!(
            ir.opcode(j),
            Opcode::Alloca | Opcode::Phi | Opcode::AddrSpaceCast
        ) {
            return None;
        }
        steps += 1;
        cur = ir.prev_inst(j);
    }
    Some(steps)
}

/// Memoizing converter: one cast per (value, target space) per function.
#[derive(Default, Debug)]
pub struct Converter {
    memo: HashMap<(ValueId, u32), ValueId>,
    /// Number of `addrspacecast` instructions built.
    pub casts_built: u64,
}

impl Converter {
    /// A view of pointer `v` in `addrspace(n)`, for a use at `use_site`
    /// (the instruction before which a cast of a constant is placed).
    ///
    /// Reuses `v` itself when it already has that type, the source of an
    /// `addrspacecast` from that space, `null` of the new type for `null`,
    /// and otherwise builds one `addrspacecast` right after the definition
    /// (before `use_site` for constants).
    pub fn view_in<M: IrEdit + ?Sized>(
        &mut self,
        ir: &mut M,
        v: ValueId,
        n: u32,
        use_site: InstId,
    ) -> Result<ValueId, EditError> {
        if space_of(ir, v) == Some(n) {
            return Ok(v);
        }
        if let Some(src) = cast_source(ir, v) {
            if space_of(ir, src) == Some(n) {
                return Ok(src);
            }
        }
        let ty = ir.ptr_type(n);
        if matches!(ir.value_kind(v), ValueKind::Constant(ConstKind::Null)) {
            return Ok(ir.const_null(ty));
        }
        if let Some(&c) = self.memo.get(&(v, n)) {
            return Ok(c);
        }
        if let Some(c) = existing_cast(ir, v, ty) {
            self.memo.insert((v, n), c);
            return Ok(c);
        }
        let at = after_def(ir, v);
        let c = ir.build_cast(at.unwrap_or(use_site), Opcode::AddrSpaceCast, v, ty)?;
        self.casts_built += 1;
        if at.is_some() {
            self.memo.insert((v, n), c);
        }
        Ok(c)
    }

    /// Forgets memoized casts (after the IR they refer to changed shape).
    pub fn clear(&mut self) {
        self.memo.clear();
    }
}

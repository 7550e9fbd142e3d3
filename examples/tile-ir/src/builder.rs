//! A small builder for writing tile IR programs in Rust: position at the
//! end of a block and append ops.
//!
//! ```
//! use nvpass_example_tile_ir::{FuncBuilder, FuncKind, MemSpace, Module, Visibility};
//!
//! let mut m = Module::new();
//! let gptr = m.ptr_ty(MemSpace::Generic);
//! let f32t = m.ty(nvpass_example_tile_ir::TypeData::F32);
//! let sig = m.func_ty(f32t, &[gptr]);
//! let f = m.add_func("first", sig, FuncKind::Device, Visibility::Private);
//! let mut b = FuncBuilder::define(&mut m, f);
//! let p = b.param(0);
//! let v = b.load(f32t, p);
//! b.ret(Some(v));
//! ```

use crate::ir::{
    BinOp, Block, CmpPred, Const, Func, Loc, MemSpace, Module, OpKind, Successor, Ty, TypeData,
    Value,
};

/// Appends ops to the end of a block of one function.
pub struct FuncBuilder<'m> {
    /// The module being built.
    pub m: &'m mut Module,
    func: Func,
    block: Block,
    loc: Option<Loc>,
}

impl<'m> FuncBuilder<'m> {
    /// Gives `f` a body and positions at its entry block.
    pub fn define(m: &'m mut Module, f: Func) -> FuncBuilder<'m> {
        let block = m.define(f);
        FuncBuilder {
            m,
            func: f,
            block,
            loc: None,
        }
    }

    /// The function being built.
    pub fn func(&self) -> Func {
        self.func
    }

    /// The current block.
    pub fn current_block(&self) -> Block {
        self.block
    }

    /// Parameter `i` (= entry block argument `i`).
    pub fn param(&self, i: usize) -> Value {
        self.m.funcs[self.func].params[i]
    }

    /// A new block with arguments of the given types (not yet current).
    pub fn block(&mut self, name: &str, arg_tys: &[Ty]) -> Block {
        self.m.add_block(self.func, name, arg_tys)
    }

    /// Argument `i` of block `b`.
    pub fn arg(&self, b: Block, i: usize) -> Value {
        self.m.blocks[b].args[i]
    }

    /// Makes `b` the current block.
    pub fn switch_to(&mut self, b: Block) {
        self.block = b;
    }

    /// Attaches `loc("file":line:col)` to the following ops.
    pub fn set_loc(&mut self, file: &str, line: u32, col: u32) {
        self.loc = Some(self.m.loc(file, line, col));
    }

    fn push(
        &mut self,
        kind: OpKind,
        operands: Vec<Value>,
        result: Option<Ty>,
        succs: Vec<Successor>,
    ) -> Option<Value> {
        let pos = self.m.blocks[self.block].ops.len();
        let op = self
            .m
            .insert_op(self.block, pos, kind, operands, result, succs);
        self.m.ops[op].loc = self.loc;
        self.m.ops[op].result
    }

    fn push_value(&mut self, kind: OpKind, operands: Vec<Value>, ty: Ty) -> Value {
        self.push(kind, operands, Some(ty), Vec::new())
            .expect("op with a non-void result type has a result")
    }

    /// The integer constant `n` of type `iBITS`.
    pub fn iconst(&mut self, bits: u32, n: i128) -> Value {
        self.m.const_int(bits, n)
    }

    /// The `f32` constant `x`.
    pub fn fconst(&mut self, x: f32) -> Value {
        let t = self.m.ty(TypeData::F32);
        self.m.constant(Const::Float(u128::from(x.to_bits())), t)
    }

    /// `tile.<op> a, b` (result type of `a`).
    pub fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.m.values[a].ty;
        self.push_value(OpKind::Binary(op), vec![a, b], ty)
    }

    /// `tile.cmpi pred, a, b` (`i1`).
    pub fn cmp(&mut self, pred: CmpPred, a: Value, b: Value) -> Value {
        let i1 = self.m.int_ty(1);
        self.push_value(OpKind::Cmp(pred), vec![a, b], i1)
    }

    /// `tile.extsi`/`tile.extui` to `iBITS`.
    pub fn ext(&mut self, v: Value, bits: u32, signed: bool) -> Value {
        let t = self.m.int_ty(bits);
        self.push_value(OpKind::Ext { signed }, vec![v], t)
    }

    /// `tile.select c, a, b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.m.values[a].ty;
        self.push_value(OpKind::Select, vec![c, a, b], ty)
    }

    /// `tile.alloca ty` (a generic pointer to a local slot).
    pub fn alloca(&mut self, ty: Ty) -> Value {
        let p = self.m.ptr_ty(MemSpace::Generic);
        self.push_value(OpKind::Alloca { ty }, vec![], p)
    }

    /// `tile.load ptr : ty`.
    pub fn load(&mut self, ty: Ty, ptr: Value) -> Value {
        self.push_value(OpKind::Load { volatile: false }, vec![ptr], ty)
    }

    /// `tile.store ptr, value` (pointer first).
    pub fn store(&mut self, value: Value, ptr: Value) {
        self.push(
            OpKind::Store { volatile: false },
            vec![ptr, value],
            None,
            Vec::new(),
        );
    }

    /// `tile.atomic_add ptr, value`.
    pub fn atomic_add(&mut self, ptr: Value, value: Value) -> Value {
        let ty = self.m.values[value].ty;
        self.push_value(OpKind::AtomicAdd, vec![ptr, value], ty)
    }

    /// `tile.ptradd ptr, bytes` (same pointer type as `ptr`).
    pub fn ptr_add(&mut self, ptr: Value, bytes: Value) -> Value {
        let ty = self.m.values[ptr].ty;
        self.push_value(OpKind::PtrAdd, vec![ptr, bytes], ty)
    }

    /// `tile.cast_space v : space`.
    pub fn cast_space(&mut self, v: Value, space: MemSpace) -> Value {
        let t = self.m.ptr_ty(space);
        self.push_value(OpKind::CastSpace, vec![v], t)
    }

    /// The address of global `g`.
    pub fn global_addr(&self, g: crate::ir::Global) -> Value {
        self.m.globals[g].addr
    }

    /// `tile.call @f(args)`; the result if `f` returns a value.
    pub fn call(&mut self, f: Func, args: &[Value]) -> Option<Value> {
        let sig = self.m.funcs[f].sig;
        let ret = self.m.sig_parts(sig).map(|(r, _)| r);
        self.push(
            OpKind::Call { callee: f, sig },
            args.to_vec(),
            ret,
            Vec::new(),
        )
    }

    /// A dialect op the passes do not know (`tile.barrier`).
    pub fn custom(&mut self, name: &str, args: &[Value], result: Option<Ty>) -> Option<Value> {
        self.push(
            OpKind::Custom(name.to_string()),
            args.to_vec(),
            result,
            Vec::new(),
        )
    }

    /// `tile.br ^dest(args)`.
    pub fn br(&mut self, dest: Block, args: &[Value]) {
        let s = Successor {
            block: dest,
            args: args.to_vec(),
        };
        self.push(OpKind::Br, vec![], None, vec![s]);
    }

    /// `tile.cond_br c, ^t(targs), ^e(eargs)`.
    pub fn cond_br(&mut self, c: Value, t: Block, targs: &[Value], e: Block, eargs: &[Value]) {
        let succs = vec![
            Successor {
                block: t,
                args: targs.to_vec(),
            },
            Successor {
                block: e,
                args: eargs.to_vec(),
            },
        ];
        self.push(OpKind::CondBr, vec![c], None, succs);
    }

    /// `tile.return [v]`.
    pub fn ret(&mut self, v: Option<Value>) {
        self.push(OpKind::Ret, v.into_iter().collect(), None, Vec::new());
    }

    /// `tile.unreachable`.
    pub fn unreachable(&mut self) {
        self.push(OpKind::Unreachable, vec![], None, Vec::new());
    }
}

/// The comparison predicate of a `tile.cmpi` op (for printing).
pub(crate) fn pred_name(p: CmpPred) -> &'static str {
    match p {
        CmpPred::Eq => "eq",
        CmpPred::Ne => "ne",
        CmpPred::Ult => "ult",
        CmpPred::Slt => "slt",
    }
}

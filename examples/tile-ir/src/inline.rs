//! Inlining a `tile.call`, the block-argument way.
//!
//! The caller's block is split after the call into a continuation block;
//! the callee's blocks are copied in between with parameters replaced by
//! the call's arguments; every `tile.return v` becomes `tile.br ^cont(v)`
//! and the call's result becomes the continuation's block argument (or,
//! when the callee has one return, the returned value itself, as LLVM
//! does). Allocas of the callee's entry block move to the caller's entry
//! block.

use hashbrown::HashMap;
use nvpass_core::ir::EditError;

use crate::ir::{Block, Module, Op, OpKind, Slot, Successor, Value};

/// What one inlining brought into the caller.
#[derive(Clone, Debug, Default)]
pub struct Inlined {
    /// Allocas now in the caller's entry block.
    pub allocas: Vec<Op>,
    /// Calls copied from the callee body.
    pub calls: Vec<Op>,
}

impl Module {
    /// Inlines direct call `call` into its function (see the module docs).
    pub fn inline_op(&mut self, call: Op) -> Result<Inlined, EditError> {
        let OpKind::Call { callee, .. } = self.ops[call].kind else {
            return Err(EditError::NotACall);
        };
        let block = self.ops[call].block.ok_or(EditError::OutOfRange)?;
        let caller = self.blocks[block].func;
        if callee == caller {
            return Err(EditError::NotInlinable("recursive call"));
        }
        let Some(src_blocks) = self.funcs[callee].body.clone() else {
            return Err(EditError::NotInlinable("callee is a declaration"));
        };
        let rets: Vec<Op> = src_blocks
            .iter()
            .flat_map(|&b| self.blocks[b].ops.iter().copied())
            .filter(|&o| self.ops[o].kind == OpKind::Ret)
            .collect();
        let result = self.ops[call].result;
        let single = rets.len() == 1;

        // Split: ops after the call move to the continuation block.
        let cont_name = format!("{}.exit", self.funcs[callee].name);
        let cont_args: Vec<_> = match result {
            Some(r) if !single => vec![self.values[r].ty],
            _ => Vec::new(),
        };
        let cont = self.add_block(caller, &cont_name, &cont_args);
        let pos = self.blocks[block]
            .ops
            .iter()
            .position(|&o| o == call)
            .ok_or(EditError::OutOfRange)?;
        let tail: Vec<Op> = self.blocks[block].ops.split_off(pos + 1);
        for &o in &tail {
            self.ops[o].block = Some(cont);
        }
        self.blocks[cont].ops = tail;

        // Copy the callee's blocks, parameters mapped to the arguments.
        let mut vmap: HashMap<Value, Value> = HashMap::new();
        for (&p, &a) in self.funcs[callee]
            .params
            .clone()
            .iter()
            .zip(&self.ops[call].operands.clone())
        {
            vmap.insert(p, a);
        }
        let mut bmap: HashMap<Block, Block> = HashMap::new();
        for &b in &src_blocks {
            let name = format!(
                "{}.{}",
                self.funcs[callee].name,
                self.blocks[b].name.clone().unwrap_or_default()
            );
            let tys: Vec<_> = if b == src_blocks[0] {
                Vec::new()
            } else {
                self.blocks[b]
                    .args
                    .iter()
                    .map(|&a| self.values[a].ty)
                    .collect()
            };
            let nb = self.add_block(caller, &name, &tys);
            if b != src_blocks[0] {
                for (&a, &na) in self.blocks[b]
                    .args
                    .clone()
                    .iter()
                    .zip(&self.blocks[nb].args.clone())
                {
                    vmap.insert(a, na);
                }
            }
            bmap.insert(b, nb);
        }
        let mut copied = Vec::new();
        let mut returned = None;
        for &b in &src_blocks {
            let nb = bmap[&b];
            for o in self.blocks[b].ops.clone() {
                let d = self.ops[o].clone();
                let at = self.blocks[nb].ops.len();
                if d.kind == OpKind::Ret {
                    let args = match (d.operands.first(), single) {
                        (Some(&v), false) => vec![v],
                        (Some(&v), true) => {
                            returned = Some(v);
                            Vec::new()
                        }
                        (None, _) => Vec::new(),
                    };
                    let s = Successor { block: cont, args };
                    let no = self.insert_op(nb, at, OpKind::Br, vec![], None, vec![s]);
                    self.ops[no].loc = d.loc;
                    copied.push(no);
                    continue;
                }
                let succs = d
                    .succs
                    .iter()
                    .map(|s| Successor {
                        block: bmap[&s.block],
                        args: s.args.clone(),
                    })
                    .collect();
                let rty = d.result.map(|r| self.values[r].ty);
                let no = self.insert_op(nb, at, d.kind.clone(), d.operands.clone(), rty, succs);
                self.ops[no].attrs = d.attrs.clone();
                self.ops[no].loc = d.loc;
                if let (Some(r), Some(nr)) = (d.result, self.ops[no].result) {
                    vmap.insert(r, nr);
                }
                copied.push(no);
            }
        }
        for &no in &copied {
            let d = self.ops[no].clone();
            for (k, v) in d.operands.iter().enumerate() {
                if let Some(&nv) = vmap.get(v) {
                    self.set_slot(no, Slot::Operand(k as u32), nv);
                }
            }
            for (s, succ) in d.succs.iter().enumerate() {
                for (a, v) in succ.args.iter().enumerate() {
                    if let Some(&nv) = vmap.get(v) {
                        let slot = Slot::SuccArg {
                            succ: s as u32,
                            arg: a as u32,
                        };
                        self.set_slot(no, slot, nv);
                    }
                }
            }
        }

        // Layout: caller block, inlined blocks, continuation, the rest.
        let new_blocks: Vec<Block> = src_blocks.iter().map(|b| bmap[b]).collect();
        if let Some(body) = self.funcs[caller].body.as_mut() {
            body.retain(|b| *b != cont && !new_blocks.contains(b));
            let at = body
                .iter()
                .position(|&b| b == block)
                .map_or(body.len(), |i| i + 1);
            let mut ins = new_blocks.clone();
            ins.push(cont);
            body.splice(at..at, ins);
        }

        // The call's value, then the call itself.
        if let Some(r) = result {
            let new = match returned {
                Some(v) => vmap.get(&v).copied().unwrap_or(v),
                None => self.blocks[cont].args[0],
            };
            self.replace_uses(r, new);
        }
        self.remove_op(call);
        let entry_copy = new_blocks[0];
        let at = self.blocks[block].ops.len();
        let s = Successor {
            block: entry_copy,
            args: Vec::new(),
        };
        self.insert_op(block, at, OpKind::Br, vec![], None, vec![s]);

        // Static allocas go to the caller's entry block.
        let entry = self.func_blocks(caller)[0];
        let allocas: Vec<Op> = self.blocks[entry_copy]
            .ops
            .iter()
            .copied()
            .filter(|&o| matches!(self.ops[o].kind, OpKind::Alloca { .. }))
            .collect();
        self.blocks[entry_copy].ops.retain(|o| !allocas.contains(o));
        for (k, &o) in allocas.iter().enumerate() {
            self.ops[o].block = Some(entry);
            self.blocks[entry].ops.insert(k, o);
        }
        let calls = copied
            .into_iter()
            .filter(|&o| {
                self.ops[o].block.is_some()
                    && matches!(
                        self.ops[o].kind,
                        OpKind::Call { .. } | OpKind::CallIndirect { .. }
                    )
            })
            .collect();
        Ok(Inlined { allocas, calls })
    }
}

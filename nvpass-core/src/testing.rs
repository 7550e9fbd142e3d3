//! A deliberately tiny in-test module: functions with a name, a calling
//! convention and function attributes. Everything else is
//! `unimplemented!()`; tests only exercise what is real here.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::datalayout::{DataLayout, StructLayout};
use crate::ir::*;

#[derive(Clone, Debug, PartialEq)]
pub enum MockAttr {
    Enum(AttrKind),
    Int(AttrKind, u64),
    Str(String, String),
    Unknown(String),
}

impl MockAttr {
    fn from_attr(a: Attr<'_>) -> MockAttr {
        match a {
            Attr::Enum(k) => MockAttr::Enum(k),
            Attr::Int(k, v) => MockAttr::Int(k, v),
            Attr::Type(..) => unimplemented!("type attributes"),
            Attr::Str(k, v) => MockAttr::Str(k.to_string(), v.to_string()),
            Attr::Unknown(t) => MockAttr::Unknown(t.to_string()),
        }
    }

    fn as_attr(&self) -> Attr<'_> {
        match self {
            MockAttr::Enum(k) => Attr::Enum(*k),
            MockAttr::Int(k, v) => Attr::Int(*k, *v),
            MockAttr::Str(k, v) => Attr::Str(k, v),
            MockAttr::Unknown(t) => Attr::Unknown(t),
        }
    }
}

#[derive(Default, Debug)]
pub struct MockModule {
    pub funcs: Vec<(String, CallConv, Vec<MockAttr>)>,
    layout: DataLayout,
}

impl MockModule {
    pub fn add_func(&mut self, name: &str, cc: CallConv, attrs: &[Attr<'_>]) -> FuncId {
        self.funcs.push((
            name.to_string(),
            cc,
            attrs.iter().map(|&a| MockAttr::from_attr(a)).collect(),
        ));
        FuncId::new(self.funcs.len() as u32 - 1)
    }
}

fn unneeded<T>() -> core::iter::Empty<T> {
    unimplemented!("not needed by the mock")
}

impl TypeView for MockModule {
    fn type_kind(&self, _: TypeId) -> TypeKind {
        unimplemented!()
    }
    fn struct_fields(&self, _: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        unneeded()
    }
    fn struct_name(&self, _: TypeId) -> Option<&str> {
        unimplemented!()
    }
    fn func_type_ret(&self, _: TypeId) -> Option<TypeId> {
        unimplemented!()
    }
    fn func_type_params(&self, _: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        unneeded()
    }
}

impl IrView for MockModule {
    fn data_layout(&self) -> &DataLayout {
        &self.layout
    }
    fn funcs(&self) -> impl Iterator<Item = FuncId> + '_ {
        (0..self.funcs.len() as u32).map(FuncId::new)
    }
    fn func_name(&self, f: FuncId) -> &str {
        &self.funcs[f.index()].0
    }
    fn func_linkage(&self, _: FuncId) -> Linkage {
        unimplemented!()
    }
    fn func_is_declaration(&self, _: FuncId) -> bool {
        unimplemented!()
    }
    fn func_call_conv(&self, f: FuncId) -> CallConv {
        self.funcs[f.index()].1
    }
    fn func_type(&self, _: FuncId) -> TypeId {
        unimplemented!()
    }
    fn func_value(&self, _: FuncId) -> ValueId {
        unimplemented!()
    }
    fn params(&self, _: FuncId) -> impl Iterator<Item = ValueId> + '_ {
        unneeded()
    }
    fn attrs(&self, f: FuncId, slot: AttrSlot) -> impl Iterator<Item = Attr<'_>> + '_ {
        assert_eq!(
            slot,
            AttrSlot::Function,
            "the mock has function attributes only"
        );
        self.funcs[f.index()].2.iter().map(MockAttr::as_attr)
    }
    fn blocks(&self, _: FuncId) -> impl Iterator<Item = BlockId> + '_ {
        unneeded()
    }
    fn block_func(&self, _: BlockId) -> FuncId {
        unimplemented!()
    }
    fn block_name(&self, _: BlockId) -> Option<&str> {
        unimplemented!()
    }
    fn insts(&self, _: BlockId) -> impl Iterator<Item = InstId> + '_ {
        unneeded()
    }
    fn successors(&self, _: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        unneeded()
    }
    fn predecessors(&self, _: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        unneeded()
    }
    fn inst_block(&self, _: InstId) -> BlockId {
        unimplemented!()
    }
    fn opcode(&self, _: InstId) -> Opcode {
        unimplemented!()
    }
    fn inst_result(&self, _: InstId) -> Option<ValueId> {
        unimplemented!()
    }
    fn operands(&self, _: InstId) -> impl Iterator<Item = ValueId> + '_ {
        unneeded()
    }
    fn callee(&self, _: InstId) -> Option<Callee> {
        unimplemented!()
    }
    fn call_func_type(&self, _: InstId) -> Option<TypeId> {
        unimplemented!()
    }
    fn call_args(&self, _: InstId) -> impl Iterator<Item = ValueId> + '_ {
        unneeded()
    }
    fn phi_incoming(&self, _: InstId) -> impl Iterator<Item = (ValueId, BlockId)> + '_ {
        unneeded()
    }
    fn alloca_type(&self, _: InstId) -> Option<TypeId> {
        unimplemented!()
    }
    fn mem_ptr(&self, _: InstId) -> Option<ValueId> {
        unimplemented!()
    }
    fn is_volatile(&self, _: InstId) -> bool {
        unimplemented!()
    }
    fn gep_source_type(&self, _: InstId) -> Option<TypeId> {
        unimplemented!()
    }
    fn inst_md(&self, _: InstId, _: &str) -> Option<MdId> {
        unimplemented!()
    }
    fn value_kind(&self, _: ValueId) -> ValueKind {
        unimplemented!()
    }
    fn value_type(&self, _: ValueId) -> TypeId {
        unimplemented!()
    }
    fn value_name(&self, _: ValueId) -> Option<&str> {
        unimplemented!()
    }
    fn users(&self, _: ValueId) -> impl Iterator<Item = User> + '_ {
        unneeded()
    }
    fn const_int(&self, _: ValueId) -> Option<i128> {
        unimplemented!()
    }
    fn globals(&self) -> impl Iterator<Item = GlobalId> + '_ {
        unneeded()
    }
    fn global_name(&self, _: GlobalId) -> &str {
        unimplemented!()
    }
    fn global_value_type(&self, _: GlobalId) -> TypeId {
        unimplemented!()
    }
    fn global_addr_space(&self, _: GlobalId) -> u32 {
        unimplemented!()
    }
    fn global_is_constant(&self, _: GlobalId) -> bool {
        unimplemented!()
    }
    fn global_initializer(&self, _: GlobalId) -> Option<ValueId> {
        unimplemented!()
    }
    fn global_linkage(&self, _: GlobalId) -> Linkage {
        unimplemented!()
    }
    fn global_value(&self, _: GlobalId) -> ValueId {
        unimplemented!()
    }
    fn named_md_names(&self) -> impl Iterator<Item = &str> + '_ {
        unneeded()
    }
    fn named_md(&self, _: &str) -> impl Iterator<Item = MdId> + '_ {
        unneeded()
    }
    fn md_operands(&self, _: MdId) -> impl Iterator<Item = MdOperand<'_>> + '_ {
        unneeded()
    }
    fn md_is_distinct(&self, _: MdId) -> bool {
        unimplemented!()
    }
    fn struct_layout(&self, _: TypeId) -> Option<StructLayout> {
        unimplemented!()
    }
}

impl IrEdit for MockModule {
    fn add_attr(&mut self, f: FuncId, slot: AttrSlot, attr: Attr<'_>) {
        assert_eq!(slot, AttrSlot::Function);
        let key = attr.key();
        let list = &mut self.funcs[f.index()].2;
        let new = MockAttr::from_attr(attr);
        match list.iter().position(|a| key.matches(&a.as_attr())) {
            Some(i) => list[i] = new,
            None => list.push(new),
        }
    }
    fn remove_attr(&mut self, f: FuncId, slot: AttrSlot, key: AttrKey<'_>) -> bool {
        assert_eq!(slot, AttrSlot::Function);
        let list = &mut self.funcs[f.index()].2;
        let before = list.len();
        list.retain(|a| !key.matches(&a.as_attr()));
        before != list.len()
    }
    fn add_call_attr(&mut self, _: InstId, _: AttrSlot, _: Attr<'_>) -> Result<(), EditError> {
        unimplemented!()
    }
    fn remove_call_attr(&mut self, _: InstId, _: AttrSlot, _: AttrKey<'_>) -> bool {
        unimplemented!()
    }
    fn set_call_conv(&mut self, f: FuncId, cc: CallConv) {
        self.funcs[f.index()].1 = cc;
    }
    fn set_linkage(&mut self, _: FuncId, _: Linkage) {
        unimplemented!()
    }
    fn set_global_linkage(&mut self, _: GlobalId, _: Linkage) {
        unimplemented!()
    }
    fn replace_all_uses(&mut self, _: ValueId, _: ValueId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn set_operand(&mut self, _: InstId, _: usize, _: ValueId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn erase_inst(&mut self, _: InstId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn build_call(
        &mut self,
        _: InstId,
        _: TypeId,
        _: ValueId,
        _: &[ValueId],
    ) -> Result<InstId, EditError> {
        unimplemented!()
    }
    fn build_cast(
        &mut self,
        _: InstId,
        _: Opcode,
        _: ValueId,
        _: TypeId,
    ) -> Result<ValueId, EditError> {
        unimplemented!()
    }
    fn set_callee(&mut self, _: InstId, _: ValueId, _: TypeId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn set_inst_md(&mut self, _: InstId, _: &str, _: Option<MdId>) {
        unimplemented!()
    }
    fn clone_function(&mut self, _: FuncId, _: &str) -> Result<(FuncId, ValueMap), EditError> {
        unimplemented!()
    }
    fn set_param_type(&mut self, _: FuncId, _: usize, _: TypeId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn set_ret_type(&mut self, _: FuncId, _: TypeId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn inline_call(&mut self, _: InstId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn remove_param(&mut self, _: FuncId, _: usize) -> Result<(), EditError> {
        unimplemented!()
    }
    fn set_global_initializer(&mut self, _: GlobalId, _: Option<ValueId>) -> Result<(), EditError> {
        unimplemented!()
    }
    fn const_float_of(&mut self, _: TypeId, _: u128) -> Result<ValueId, EditError> {
        unimplemented!()
    }
    fn const_aggregate(&mut self, _: TypeId, _: &[ValueId]) -> Result<ValueId, EditError> {
        unimplemented!()
    }
    fn create_self_ref_md_node(&mut self, _: &[MdOperand<'_>]) -> Result<MdId, EditError> {
        unimplemented!()
    }
    fn md_value(&mut self, _: MdId) -> ValueId {
        unimplemented!()
    }
    fn erase_function(&mut self, _: FuncId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn declare_function(&mut self, _: &str, _: TypeId) -> Result<FuncId, EditError> {
        unimplemented!()
    }
    fn erase_block(&mut self, _: BlockId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn erase_global(&mut self, _: GlobalId) -> Result<(), EditError> {
        unimplemented!()
    }
    fn ptr_type(&mut self, _: u32) -> TypeId {
        unimplemented!()
    }
    fn int_type(&mut self, _: u32) -> TypeId {
        unimplemented!()
    }
    fn void_type(&mut self) -> TypeId {
        unimplemented!()
    }
    fn func_type_of(&mut self, _: TypeId, _: &[TypeId], _: bool) -> TypeId {
        unimplemented!()
    }
    fn const_int_of(&mut self, _: TypeId, _: i128) -> ValueId {
        unimplemented!()
    }
    fn const_null(&mut self, _: TypeId) -> ValueId {
        unimplemented!()
    }
    fn create_md_node(&mut self, _: &[MdOperand<'_>], _: bool) -> Result<MdId, EditError> {
        unimplemented!()
    }
    fn set_named_md(&mut self, _: &str, _: &[MdId]) {
        unimplemented!()
    }
}

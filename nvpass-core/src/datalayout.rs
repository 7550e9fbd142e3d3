//! LLVM data layout strings and the size/alignment rules built on them.
//!
//! [`DataLayout::parse`] reads `target datalayout` strings such as
//! `e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64`; its queries
//! (`alloc_size`, `abi_align`, `struct_layout`, ...) follow LLVM 19's
//! `DataLayout` rules exactly, over any [`TypeView`], so a host can reuse them
//! instead of writing its own:
//!
//! - integers: the alignment of the smallest `i<N>` entry with N >= the
//!   width, else of the largest entry;
//! - floating point and vectors: the exact-width entry, else (the "natural"
//!   fallback) the store size rounded up to a power of two;
//! - pointers: the `p<as>` entry, else the address-space-0 entry;
//! - structs: each field aligned to its ABI alignment (1 when packed), the
//!   size rounded up to the struct alignment, which is the largest field
//!   alignment and at least the `a:` entry (packed structs: 1);
//! - arrays: element alloc size times length, element alignment.
//!
//! Defaults (what an empty string means) are LLVM's:
//! `e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:32:64-f16:16:16-f32:32:32-f64:64:64-f128:128:128-v64:64:64-v128:128:128-a:0:64`.

use alloc::string::{String, ToString};
use core::fmt;

use smallvec::SmallVec;

use crate::ir::{TypeId, TypeKind, TypeView};

/// Data layout of 64-bit NVPTX (`nvptx64-nvidia-cuda`), as LLVM 19's
/// `NVPTXTargetMachine` computes it.
pub const NVPTX64_DATA_LAYOUT: &str = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/// Data layout of 64-bit NVPTX with `--nvptx-short-ptr` (32-bit shared,
/// constant and local pointers), as LLVM 19 computes it.
pub const NVPTX64_SHORT_PTR_DATA_LAYOUT: &str =
    "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/// Data layout of 32-bit NVPTX (`nvptx-nvidia-cuda`), as LLVM 19 computes it.
pub const NVPTX32_DATA_LAYOUT: &str = "e-p:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/// Nesting depth after which size queries give up (`None`) instead of
/// recursing further; guards against malformed, self-containing types.
const MAX_TYPE_DEPTH: u32 = 512;

/// Alignment entry for one bit width (`i64:32:64` is bits 64, abi 4, pref 8).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct AlignEntry {
    /// Type width in bits.
    pub bits: u32,
    /// ABI alignment in bytes.
    pub abi: u64,
    /// Preferred alignment in bytes.
    pub pref: u64,
}

/// Pointer entry for one address space (`p3:32:32`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PointerEntry {
    /// Address space.
    pub addr_space: u32,
    /// Pointer width in bits.
    pub size_bits: u32,
    /// ABI alignment in bytes.
    pub abi: u64,
    /// Preferred alignment in bytes.
    pub pref: u64,
    /// Width of GEP indices in bits.
    pub index_bits: u32,
}

/// A malformed data layout string, with the byte offset of the bad part.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DataLayoutError {
    /// Byte offset into the string.
    pub pos: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataLayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid data layout at offset {}: {}",
            self.pos, self.message
        )
    }
}

/// Field offsets, size and alignment of a struct type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructLayout {
    /// Alloc size in bytes (tail padding included).
    pub size: u64,
    /// ABI alignment in bytes.
    pub align: u64,
    /// Byte offset of each field.
    pub offsets: SmallVec<[u64; 8]>,
    /// Whether any padding was inserted (between fields or at the end).
    pub padded: bool,
}

/// A parsed data layout. Comparing two layouts compares their meaning, not
/// their spelling; [`DataLayout::as_str`] keeps the spelling.
#[derive(Clone, Debug)]
pub struct DataLayout {
    text: String,
    big_endian: bool,
    stack_align: Option<u64>,
    program_addr_space: u32,
    alloca_addr_space: u32,
    globals_addr_space: u32,
    aggregate_abi: u64,
    aggregate_pref: u64,
    ints: SmallVec<[AlignEntry; 8]>,
    floats: SmallVec<[AlignEntry; 8]>,
    vectors: SmallVec<[AlignEntry; 8]>,
    pointers: SmallVec<[PointerEntry; 4]>,
    native_ints: SmallVec<[u32; 4]>,
    non_integral: SmallVec<[u32; 2]>,
    mangling: Option<char>,
}

impl PartialEq for DataLayout {
    fn eq(&self, o: &Self) -> bool {
        self.big_endian == o.big_endian
            && self.stack_align == o.stack_align
            && self.program_addr_space == o.program_addr_space
            && self.alloca_addr_space == o.alloca_addr_space
            && self.globals_addr_space == o.globals_addr_space
            && self.aggregate_abi == o.aggregate_abi
            && self.aggregate_pref == o.aggregate_pref
            && self.ints == o.ints
            && self.floats == o.floats
            && self.vectors == o.vectors
            && self.pointers == o.pointers
            && self.native_ints == o.native_ints
            && self.non_integral == o.non_integral
            && self.mangling == o.mangling
    }
}

impl Default for DataLayout {
    /// LLVM's default layout (what an empty `target datalayout` means).
    fn default() -> Self {
        let e = |bits, abi, pref| AlignEntry { bits, abi, pref };
        DataLayout {
            text: String::new(),
            big_endian: false,
            stack_align: None,
            program_addr_space: 0,
            alloca_addr_space: 0,
            globals_addr_space: 0,
            aggregate_abi: 1,
            aggregate_pref: 8,
            ints: SmallVec::from_slice(&[
                e(1, 1, 1),
                e(8, 1, 1),
                e(16, 2, 2),
                e(32, 4, 4),
                e(64, 4, 8),
            ]),
            floats: SmallVec::from_slice(&[e(16, 2, 2), e(32, 4, 4), e(64, 8, 8), e(128, 16, 16)]),
            vectors: SmallVec::from_slice(&[e(64, 8, 8), e(128, 16, 16)]),
            pointers: SmallVec::from_slice(&[PointerEntry {
                addr_space: 0,
                size_bits: 64,
                abi: 8,
                pref: 8,
                index_bits: 64,
            }]),
            native_ints: SmallVec::new(),
            non_integral: SmallVec::new(),
            mangling: None,
        }
    }
}

fn set_entry(list: &mut SmallVec<[AlignEntry; 8]>, entry: AlignEntry) {
    match list.binary_search_by_key(&entry.bits, |e| e.bits) {
        Ok(i) => list[i] = entry,
        Err(i) => list.insert(i, entry),
    }
}

fn align_to(value: u64, align: u64) -> u64 {
    value.div_ceil(align) * align
}

fn pow2_ceil(v: u64) -> u64 {
    v.max(1).next_power_of_two()
}

struct Item<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Item<'a> {
    fn err(&self, message: impl Into<String>) -> DataLayoutError {
        DataLayoutError {
            pos: self.pos,
            message: message.into(),
        }
    }

    /// Splits `self.text[skip..]` at ':' into (field text, byte offset) pairs.
    fn fields(&self, skip: usize) -> SmallVec<[(&'a str, usize); 5]> {
        let mut out = SmallVec::new();
        let mut offset = self.pos + skip;
        for part in self.text[skip..].split(':') {
            out.push((part, offset));
            offset += part.len() + 1;
        }
        out
    }
}

fn parse_u32(text: &str, pos: usize, what: &str) -> Result<u32, DataLayoutError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DataLayoutError {
            pos,
            message: alloc::format!("expected a number for {what}, found '{text}'"),
        });
    }
    text.parse::<u32>().map_err(|_| DataLayoutError {
        pos,
        message: alloc::format!("{what} '{text}' is too large"),
    })
}

/// Parses an alignment given in bits into bytes (`0` allowed only if `zero_ok`).
fn parse_align(text: &str, pos: usize, what: &str, zero_ok: bool) -> Result<u64, DataLayoutError> {
    let bits = parse_u32(text, pos, what)?;
    if bits == 0 && zero_ok {
        return Ok(1);
    }
    if bits == 0 || bits % 8 != 0 || !(bits / 8).is_power_of_two() {
        return Err(DataLayoutError {
            pos,
            message: alloc::format!(
                "{what} must be a power-of-two multiple of 8 bits, found {bits}"
            ),
        });
    }
    Ok(u64::from(bits / 8))
}

impl DataLayout {
    /// Parses an LLVM data layout string (the contents of
    /// `target datalayout = "..."`). Unspecified entries keep LLVM's
    /// defaults; the empty string gives [`DataLayout::default`].
    pub fn parse(text: &str) -> Result<DataLayout, DataLayoutError> {
        let mut dl = DataLayout {
            text: text.to_string(),
            ..DataLayout::default()
        };
        if text.is_empty() {
            return Ok(dl);
        }
        let mut pos = 0;
        for part in text.split('-') {
            let item = Item { text: part, pos };
            pos += part.len() + 1;
            dl.parse_item(&item)?;
        }
        Ok(dl)
    }

    fn parse_item(&mut self, item: &Item<'_>) -> Result<(), DataLayoutError> {
        let t = item.text;
        let Some(first) = t.chars().next() else {
            return Err(item.err("empty specification"));
        };
        match first {
            'e' | 'E' => {
                if t.len() != 1 {
                    return Err(item.err("malformed endianness specification"));
                }
                self.big_endian = first == 'E';
            }
            'm' => {
                let b = t.as_bytes();
                if b.len() != 3 || b[1] != b':' || !b"emowlxa".contains(&b[2]) {
                    return Err(item.err("expected 'm:<mangling>' with one of e, l, m, o, w, x, a"));
                }
                self.mangling = Some(b[2] as char);
            }
            // `S0` means "unspecified".
            'S' if &t[1..] == "0" => self.stack_align = None,
            'S' => {
                self.stack_align = Some(parse_align(
                    &t[1..],
                    item.pos + 1,
                    "stack alignment",
                    false,
                )?)
            }
            'P' | 'A' | 'G' => {
                let a = parse_u32(&t[1..], item.pos + 1, "address space")?;
                match first {
                    'P' => self.program_addr_space = a,
                    'A' => self.alloca_addr_space = a,
                    _ => self.globals_addr_space = a,
                }
            }
            'F' => {
                // Function pointer alignment `Fi8` / `Fn32`: accepted, not modelled.
                let kind = t.as_bytes().get(1).copied();
                if !matches!(kind, Some(b'i') | Some(b'n')) {
                    return Err(item.err("expected 'Fi<bits>' or 'Fn<bits>'"));
                }
                parse_align(&t[2..], item.pos + 2, "function pointer alignment", false)?;
            }
            'n' if t.starts_with("ni") => {
                let fields = item.fields(2);
                if fields.len() < 2 || !fields[0].0.is_empty() {
                    return Err(item.err("expected 'ni:<as>[:<as>...]'"));
                }
                for &(f, p) in &fields[1..] {
                    let a = parse_u32(f, p, "address space")?;
                    if a == 0 {
                        return Err(DataLayoutError {
                            pos: p,
                            message: "address space 0 cannot be non-integral".into(),
                        });
                    }
                    self.non_integral.push(a);
                }
            }
            'n' => {
                self.native_ints.clear();
                for (f, p) in item.fields(1) {
                    self.native_ints
                        .push(parse_u32(f, p, "native integer width")?);
                }
            }
            'p' => self.parse_pointer(item)?,
            'i' | 'f' | 'v' | 'a' => self.parse_align_item(item, first)?,
            _ => return Err(item.err(alloc::format!("unknown specifier '{first}'"))),
        }
        Ok(())
    }

    fn parse_pointer(&mut self, item: &Item<'_>) -> Result<(), DataLayoutError> {
        let fields = item.fields(1);
        let (as_text, as_pos) = fields[0];
        let addr_space = if as_text.is_empty() {
            0
        } else {
            parse_u32(as_text, as_pos, "address space")?
        };
        if !(3..=5).contains(&fields.len()) {
            return Err(item.err("expected 'p[<as>]:<size>:<abi>[:<pref>[:<idx>]]'"));
        }
        let size_bits = parse_u32(fields[1].0, fields[1].1, "pointer size")?;
        if size_bits == 0 {
            return Err(DataLayoutError {
                pos: fields[1].1,
                message: "pointer size must be non-zero".into(),
            });
        }
        let abi = parse_align(fields[2].0, fields[2].1, "pointer ABI alignment", false)?;
        let pref = match fields.get(3) {
            Some(&(f, p)) => parse_align(f, p, "pointer preferred alignment", false)?,
            None => abi,
        };
        if pref < abi {
            return Err(item.err("preferred alignment cannot be less than the ABI alignment"));
        }
        let index_bits = match fields.get(4) {
            Some(&(f, p)) => parse_u32(f, p, "index size")?,
            None => size_bits,
        };
        if index_bits == 0 || index_bits > size_bits {
            return Err(item.err("index size must be non-zero and at most the pointer size"));
        }
        let entry = PointerEntry {
            addr_space,
            size_bits,
            abi,
            pref,
            index_bits,
        };
        match self
            .pointers
            .iter_mut()
            .find(|p| p.addr_space == addr_space)
        {
            Some(p) => *p = entry,
            None => self.pointers.push(entry),
        }
        Ok(())
    }

    fn parse_align_item(&mut self, item: &Item<'_>, kind: char) -> Result<(), DataLayoutError> {
        let fields = item.fields(1);
        let (size_text, size_pos) = fields[0];
        let bits = if kind == 'a' {
            if !(size_text.is_empty() || size_text == "0") {
                return Err(item.err("aggregate specification takes no size"));
            }
            0
        } else {
            parse_u32(size_text, size_pos, "type size")?
        };
        if kind != 'a' && bits == 0 {
            return Err(item.err("type size must be non-zero"));
        }
        if !(2..=3).contains(&fields.len()) {
            return Err(item.err(alloc::format!("expected '{kind}<size>:<abi>[:<pref>]'")));
        }
        let abi = parse_align(fields[1].0, fields[1].1, "ABI alignment", kind == 'a')?;
        let pref = match fields.get(2) {
            Some(&(f, p)) => parse_align(f, p, "preferred alignment", false)?,
            None => abi,
        };
        if pref < abi {
            return Err(item.err("preferred alignment cannot be less than the ABI alignment"));
        }
        if kind == 'i' && bits == 8 && abi != 1 {
            return Err(item.err("i8 must be 8-bit aligned"));
        }
        let entry = AlignEntry { bits, abi, pref };
        match kind {
            'i' => set_entry(&mut self.ints, entry),
            'f' => set_entry(&mut self.floats, entry),
            'v' => set_entry(&mut self.vectors, entry),
            _ => {
                self.aggregate_abi = abi;
                self.aggregate_pref = pref;
            }
        }
        Ok(())
    }

    /// The string this layout was parsed from (`""` for the default).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `E` was given.
    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// Natural stack alignment in bytes (`S<bits>`), if given.
    pub fn stack_align(&self) -> Option<u64> {
        self.stack_align
    }

    /// Address space of `alloca`s (`A<n>`, default 0).
    pub fn alloca_addr_space(&self) -> u32 {
        self.alloca_addr_space
    }

    /// Address space of functions (`P<n>`, default 0).
    pub fn program_addr_space(&self) -> u32 {
        self.program_addr_space
    }

    /// Default address space of globals (`G<n>`, default 0).
    pub fn globals_addr_space(&self) -> u32 {
        self.globals_addr_space
    }

    /// Native integer widths (`n16:32:64`).
    pub fn native_int_widths(&self) -> &[u32] {
        &self.native_ints
    }

    /// Whether pointers in `addr_space` are non-integral (`ni:`).
    pub fn is_non_integral(&self, addr_space: u32) -> bool {
        self.non_integral.contains(&addr_space)
    }

    /// The name-mangling mode (`m:e` gives `'e'`), if given.
    pub fn mangling(&self) -> Option<char> {
        self.mangling
    }

    /// The pointer entry for `addr_space` (falling back to address space 0).
    pub fn pointer_entry(&self, addr_space: u32) -> PointerEntry {
        let find = |a| self.pointers.iter().find(|p| p.addr_space == a);
        match find(addr_space).or_else(|| find(0)) {
            Some(p) => *p,
            // Address space 0 is always present (set by `Default`); keep a
            // panic-free answer anyway.
            None => PointerEntry {
                addr_space,
                size_bits: 64,
                abi: 8,
                pref: 8,
                index_bits: 64,
            },
        }
    }

    /// Pointer size in bytes in `addr_space`.
    pub fn pointer_size(&self, addr_space: u32) -> u64 {
        u64::from(self.pointer_entry(addr_space).size_bits).div_ceil(8)
    }

    /// Pointer size in bits in `addr_space`.
    pub fn pointer_size_bits(&self, addr_space: u32) -> u32 {
        self.pointer_entry(addr_space).size_bits
    }

    /// GEP index width in bits in `addr_space`.
    pub fn index_size_bits(&self, addr_space: u32) -> u32 {
        self.pointer_entry(addr_space).index_bits
    }

    /// ABI alignment of an integer of `bits` bits, in bytes.
    pub fn int_abi_align(&self, bits: u32) -> u64 {
        let i = self.ints.partition_point(|e| e.bits < bits);
        self.ints.get(i).or(self.ints.last()).map_or(1, |e| e.abi)
    }

    /// Size in bits (LLVM `getTypeSizeInBits`); `None` for unsized types
    /// (`void`, functions, opaque structs, tokens, metadata, target
    /// extension types, scalable vectors).
    pub fn size_in_bits<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId) -> Option<u64> {
        self.size_bits_at(types, ty, 0)
    }

    fn size_bits_at<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId, depth: u32) -> Option<u64> {
        self.size_align_at(types, ty, depth, &mut StructMemo::new())
            .0
    }

    /// Size in bits and ABI alignment in bytes of `ty`, found in one walk
    /// of the type. Either is `None` exactly when
    /// [`DataLayout::size_in_bits`] or [`DataLayout::abi_align`] is.
    ///
    /// Asking for them separately walked each nested struct three times
    /// per level (once for its alignment, twice for its alloc size), so
    /// the cost grew as 3^depth; and a struct whose fields repeat one
    /// struct type (`{ %S, %S }`, nested) doubles the walk per level. So
    /// the results for nested structs are kept in `memo` for the query, by
    /// type and depth (the depth limit may make the same type unsized
    /// deeper down): each distinct (type, depth) is laid out once.
    fn size_align_at<T: TypeView + ?Sized>(
        &self,
        types: &T,
        ty: TypeId,
        depth: u32,
        memo: &mut StructMemo,
    ) -> (Option<u64>, Option<u64>) {
        if depth > MAX_TYPE_DEPTH {
            return (None, None);
        }
        let float = |bits: u64| (Some(bits), Some(exact_or_natural(&self.floats, bits)));
        match types.type_kind(ty) {
            TypeKind::Int(bits) => (Some(u64::from(bits)), Some(self.int_abi_align(bits))),
            TypeKind::Half | TypeKind::BFloat => float(16),
            TypeKind::Float => float(32),
            TypeKind::Double => float(64),
            TypeKind::X86Fp80 => float(80),
            TypeKind::Fp128 | TypeKind::PpcFp128 => float(128),
            TypeKind::X86Amx => (Some(8192), Some(64)),
            TypeKind::Ptr(a) => {
                let e = self.pointer_entry(a);
                (Some(u64::from(e.size_bits)), Some(e.abi))
            }
            TypeKind::Label => {
                let e = self.pointer_entry(0);
                (Some(u64::from(e.size_bits)), Some(e.abi))
            }
            TypeKind::Array { len, elem } => {
                let (size, align) = self.size_align_at(types, elem, depth + 1, memo);
                let bits = alloc_bytes(size, align)
                    .and_then(|a| len.checked_mul(a))
                    .and_then(|b| b.checked_mul(8));
                (bits, align)
            }
            TypeKind::Struct { packed, .. } => {
                // The outermost struct is never met again in its own query.
                let keep = depth > 0;
                if let Some(&r) = memo.get(&(ty, depth)).filter(|_| keep) {
                    return r;
                }
                let r = match self.fields_layout(types, ty, depth + 1, memo, None) {
                    Some((size, align, _)) => {
                        let align = if packed {
                            1
                        } else {
                            align.max(self.aggregate_abi)
                        };
                        (size.checked_mul(8), Some(align))
                    }
                    None => (None, None),
                };
                if keep {
                    memo.insert((ty, depth), r);
                }
                r
            }
            TypeKind::Vector {
                len,
                elem,
                scalable: false,
            } => {
                let bits = self
                    .size_align_at(types, elem, depth + 1, memo)
                    .0
                    .and_then(|e| u64::from(len).checked_mul(e));
                (bits, bits.map(|b| exact_or_natural(&self.vectors, b)))
            }
            _ => (None, None),
        }
    }

    /// Bytes a store of `ty` writes (LLVM `getTypeStoreSize`): size in bits
    /// rounded up to whole bytes.
    pub fn store_size<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId) -> Option<u64> {
        Some(self.size_in_bits(types, ty)?.div_ceil(8))
    }

    /// Distance between consecutive array elements of `ty` (LLVM
    /// `getTypeAllocSize`): store size rounded up to the ABI alignment.
    pub fn alloc_size<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId) -> Option<u64> {
        self.alloc_size_at(types, ty, 0)
    }

    fn alloc_size_at<T: TypeView + ?Sized>(
        &self,
        types: &T,
        ty: TypeId,
        depth: u32,
    ) -> Option<u64> {
        let (size, align) = self.size_align_at(types, ty, depth, &mut StructMemo::new());
        alloc_bytes(size, align)
    }

    /// ABI alignment of `ty` in bytes (LLVM `getABITypeAlign`); `None` for
    /// unsized types.
    pub fn abi_align<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId) -> Option<u64> {
        self.abi_align_at(types, ty, 0)
    }

    fn abi_align_at<T: TypeView + ?Sized>(&self, types: &T, ty: TypeId, depth: u32) -> Option<u64> {
        self.size_align_at(types, ty, depth, &mut StructMemo::new())
            .1
    }

    /// Field offsets, alloc size and alignment of struct `ty`; `None` if `ty`
    /// is not a struct or is opaque or has an unsized field.
    pub fn struct_layout<T: TypeView + ?Sized>(
        &self,
        types: &T,
        ty: TypeId,
    ) -> Option<StructLayout> {
        self.struct_layout_at(types, ty, 0)
    }

    fn struct_layout_at<T: TypeView + ?Sized>(
        &self,
        types: &T,
        ty: TypeId,
        depth: u32,
    ) -> Option<StructLayout> {
        let mut offsets = SmallVec::new();
        let (size, align, padded) =
            self.fields_layout(types, ty, depth, &mut StructMemo::new(), Some(&mut offsets))?;
        Some(StructLayout {
            size,
            align,
            offsets,
            padded,
        })
    }

    /// Lays out the fields of struct `ty` (at `depth`): its alloc size and
    /// alignment in bytes and whether it holds padding, and each field's
    /// offset into `offsets` when given. `None` if `ty` is not a struct, is
    /// opaque, or has an unsized field.
    fn fields_layout<T: TypeView + ?Sized>(
        &self,
        types: &T,
        ty: TypeId,
        depth: u32,
        memo: &mut StructMemo,
        mut offsets: Option<&mut SmallVec<[u64; 8]>>,
    ) -> Option<(u64, u64, bool)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let TypeKind::Struct {
            packed,
            opaque: false,
        } = types.type_kind(ty)
        else {
            return None;
        };
        let mut size = 0u64;
        let mut align = 1u64;
        let mut padded = false;
        for field in types.struct_fields(ty) {
            let (field_size, natural) = self.size_align_at(types, field, depth + 1, memo);
            let field_align = if packed { 1 } else { natural? };
            let aligned = align_to(size, field_align);
            padded |= aligned != size;
            size = aligned;
            align = align.max(field_align);
            if let Some(o) = offsets.as_deref_mut() {
                o.push(size);
            }
            size = size.checked_add(alloc_bytes(field_size, natural)?)?;
        }
        let aligned = align_to(size, align);
        padded |= aligned != size;
        Some((aligned, align, padded))
    }
}

/// Size and alignment of the nested structs met during one layout query,
/// by type and depth (see [`DataLayout::size_align_at`]).
type StructMemo = hashbrown::HashMap<(TypeId, u32), (Option<u64>, Option<u64>)>;

/// The alloc size in bytes of a type of `size` bits and ABI alignment
/// `align`: its store size rounded up to the alignment.
fn alloc_bytes(size: Option<u64>, align: Option<u64>) -> Option<u64> {
    Some(align_to(size?.div_ceil(8), align?))
}

/// The ABI alignment listed for `bits` in `list`, else the natural one
/// (the size rounded up to a power of two bytes).
fn exact_or_natural(list: &[AlignEntry], bits: u64) -> u64 {
    list.iter()
        .find(|e| u64::from(e.bits) == bits)
        .map_or_else(|| pow2_ceil(bits.div_ceil(8)), |e| e.abi)
}

impl fmt::Display for DataLayout {
    /// Prints the original string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// A tiny type table: types are indices into `kinds`.
    #[derive(Default)]
    struct Types {
        kinds: Vec<TypeKind>,
        fields: Vec<Vec<TypeId>>,
    }

    impl Types {
        fn add(&mut self, k: TypeKind) -> TypeId {
            self.kinds.push(k);
            self.fields.push(Vec::new());
            TypeId::new(self.kinds.len() as u32 - 1)
        }
        fn st(&mut self, packed: bool, fields: &[TypeId]) -> TypeId {
            let t = self.add(TypeKind::Struct {
                packed,
                opaque: false,
            });
            self.fields[t.index()] = fields.to_vec();
            t
        }
    }

    impl TypeView for Types {
        fn type_kind(&self, ty: TypeId) -> TypeKind {
            self.kinds[ty.index()]
        }
        fn struct_fields(&self, ty: TypeId) -> impl Iterator<Item = TypeId> + '_ {
            self.fields[ty.index()].iter().copied()
        }
        fn struct_name(&self, _: TypeId) -> Option<&str> {
            None
        }
        fn func_type_ret(&self, _: TypeId) -> Option<TypeId> {
            None
        }
        fn func_type_params(&self, _: TypeId) -> impl Iterator<Item = TypeId> + '_ {
            core::iter::empty()
        }
    }

    /// The layout rules written the direct way, asking for sizes and
    /// alignments separately (exponential in nesting depth, so only for
    /// the small types below): the reference the one-walk computation is
    /// checked against.
    mod reference {
        use super::*;

        pub fn size_bits(dl: &DataLayout, t: &Types, ty: TypeId) -> Option<u64> {
            Some(match t.type_kind(ty) {
                TypeKind::Int(bits) => u64::from(bits),
                TypeKind::Half | TypeKind::BFloat => 16,
                TypeKind::Float => 32,
                TypeKind::Double => 64,
                TypeKind::X86Fp80 => 80,
                TypeKind::Fp128 | TypeKind::PpcFp128 => 128,
                TypeKind::X86Amx => 8192,
                TypeKind::Ptr(a) => u64::from(dl.pointer_size_bits(a)),
                TypeKind::Label => u64::from(dl.pointer_size_bits(0)),
                TypeKind::Array { len, elem } => {
                    len.checked_mul(alloc(dl, t, elem)?)?.checked_mul(8)?
                }
                TypeKind::Struct { .. } => layout(dl, t, ty)?.size.checked_mul(8)?,
                TypeKind::Vector {
                    len,
                    elem,
                    scalable: false,
                } => u64::from(len).checked_mul(size_bits(dl, t, elem)?)?,
                _ => return None,
            })
        }

        pub fn align(dl: &DataLayout, t: &Types, ty: TypeId) -> Option<u64> {
            Some(match t.type_kind(ty) {
                TypeKind::Int(bits) => dl.int_abi_align(bits),
                TypeKind::Ptr(a) => dl.pointer_entry(a).abi,
                TypeKind::Label => dl.pointer_entry(0).abi,
                k if k.is_float() => exact_or_natural(&dl.floats, size_bits(dl, t, ty)?),
                TypeKind::X86Amx => 64,
                TypeKind::Vector {
                    scalable: false, ..
                } => exact_or_natural(&dl.vectors, size_bits(dl, t, ty)?),
                TypeKind::Array { elem, .. } => align(dl, t, elem)?,
                TypeKind::Struct { packed, .. } => {
                    let l = layout(dl, t, ty)?;
                    if packed {
                        1
                    } else {
                        l.align.max(dl.aggregate_abi)
                    }
                }
                _ => return None,
            })
        }

        pub fn alloc(dl: &DataLayout, t: &Types, ty: TypeId) -> Option<u64> {
            Some(align_to(
                size_bits(dl, t, ty)?.div_ceil(8),
                align(dl, t, ty)?,
            ))
        }

        pub fn layout(dl: &DataLayout, t: &Types, ty: TypeId) -> Option<StructLayout> {
            let TypeKind::Struct {
                packed,
                opaque: false,
            } = t.type_kind(ty)
            else {
                return None;
            };
            let (mut size, mut max_align, mut padded) = (0u64, 1u64, false);
            let mut offsets = SmallVec::new();
            for f in t.struct_fields(ty) {
                let a = if packed { 1 } else { align(dl, t, f)? };
                let at = align_to(size, a);
                padded |= at != size;
                max_align = max_align.max(a);
                offsets.push(at);
                size = at.checked_add(alloc(dl, t, f)?)?;
            }
            let end = align_to(size, max_align);
            Some(StructLayout {
                size: end,
                align: max_align,
                offsets,
                padded: padded || end != size,
            })
        }
    }

    /// Random nested types (structs packed or not, opaque ones, arrays
    /// long enough to overflow, vectors, every scalar): every query
    /// answers as the reference rules do.
    #[test]
    fn one_walk_layout_matches_the_reference() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let odd = DataLayout::parse("e-p:32:16-i64:32-f64:32-v64:32-v128:32-a:0:64").unwrap();
        for dl in [nvptx(), DataLayout::default(), odd] {
            let mut t = Types::default();
            let scalars = [
                TypeKind::Int(1),
                TypeKind::Int(8),
                TypeKind::Int(24),
                TypeKind::Int(64),
                TypeKind::Int(128),
                TypeKind::Half,
                TypeKind::Float,
                TypeKind::Double,
                TypeKind::X86Fp80,
                TypeKind::Fp128,
                TypeKind::Ptr(0),
                TypeKind::Ptr(3),
                TypeKind::Label,
                TypeKind::Void,
            ];
            let mut all: Vec<TypeId> = scalars.iter().map(|&k| t.add(k)).collect();
            all.push(t.add(TypeKind::Struct {
                packed: false,
                opaque: true,
            }));
            for _ in 0..400 {
                let pick = |r: u64| all[r as usize % all.len()];
                let ty = match rnd(4) {
                    0 => {
                        let len = [0, 1, 3, 17, u64::MAX / 4][rnd(5) as usize];
                        t.add(TypeKind::Array {
                            len,
                            elem: pick(rnd(1 << 20)),
                        })
                    }
                    1 => t.add(TypeKind::Vector {
                        len: 1 + rnd(8) as u32,
                        elem: all[rnd(12) as usize],
                        scalable: rnd(8) == 0,
                    }),
                    _ => {
                        let n = rnd(5) as usize;
                        let fields: Vec<TypeId> = (0..n).map(|_| pick(rnd(1 << 20))).collect();
                        t.st(rnd(4) == 0, &fields)
                    }
                };
                all.push(ty);
            }
            let (mut sized, mut structs) = (0, 0);
            for &ty in &all {
                assert_eq!(
                    dl.size_in_bits(&t, ty),
                    reference::size_bits(&dl, &t, ty),
                    "{ty:?}"
                );
                assert_eq!(
                    dl.abi_align(&t, ty),
                    reference::align(&dl, &t, ty),
                    "{ty:?}"
                );
                assert_eq!(
                    dl.alloc_size(&t, ty),
                    reference::alloc(&dl, &t, ty),
                    "{ty:?}"
                );
                let l = dl.struct_layout(&t, ty);
                assert_eq!(l, reference::layout(&dl, &t, ty), "{ty:?}");
                sized += usize::from(dl.alloc_size(&t, ty).is_some());
                structs += usize::from(l.is_some());
            }
            assert!(
                sized > 150 && structs > 50,
                "{sized} sized, {structs} structs"
            );
        }
    }

    /// Structs whose fields repeat one struct type, nested 50 levels
    /// (`%S_k = { %S_k-1, %S_k-1 }`): each type is laid out once per depth,
    /// not once per path to it (2^50 paths).
    #[test]
    fn repeated_field_types_are_laid_out_once() {
        let dl = nvptx();
        let mut t = Types::default();
        let mut ty = t.add(TypeKind::Int(8));
        for _ in 0..50 {
            ty = t.st(false, &[ty, ty]);
        }
        assert_eq!(dl.alloc_size(&t, ty), Some(1 << 50));
        assert_eq!(dl.size_in_bits(&t, ty), Some(1 << 53));
        assert_eq!(dl.abi_align(&t, ty), Some(1));
        let l = dl.struct_layout(&t, ty).expect("sized");
        assert_eq!(&l.offsets[..], &[0, 1 << 49]);
        // Eleven more levels: 2^61 bytes, whose size in bits overflows.
        for _ in 0..11 {
            ty = t.st(false, &[ty, ty]);
        }
        assert_eq!(dl.size_in_bits(&t, ty), None);
        assert_eq!(dl.abi_align(&t, ty), Some(1));
    }

    /// A struct nested hundreds of levels deep is laid out in time linear
    /// in its depth (three walks per level made this one unbounded).
    #[test]
    fn deep_nesting_is_laid_out() {
        let dl = nvptx();
        let mut t = Types::default();
        let mut ty = t.add(TypeKind::Int(32));
        for _ in 0..200 {
            let pad = t.add(TypeKind::Int(8));
            ty = t.st(false, &[pad, ty]);
        }
        // Each level adds an i8 and pads it to the i32's alignment.
        assert_eq!(dl.alloc_size(&t, ty), Some(4 + 200 * 4));
        assert_eq!(dl.abi_align(&t, ty), Some(4));
    }

    fn nvptx() -> DataLayout {
        DataLayout::parse("e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64").unwrap()
    }

    #[test]
    fn pointers_per_address_space() {
        let dl = nvptx();
        let mut t = Types::default();
        let p0 = t.add(TypeKind::Ptr(0));
        let p3 = t.add(TypeKind::Ptr(3));
        let p1 = t.add(TypeKind::Ptr(1));
        assert_eq!(dl.alloc_size(&t, p0), Some(8));
        assert_eq!(dl.alloc_size(&t, p3), Some(4));
        assert_eq!(dl.abi_align(&t, p3), Some(4));
        // Unlisted address spaces use the address-space-0 entry.
        assert_eq!(dl.alloc_size(&t, p1), Some(8));
        assert_eq!(dl.pointer_size(3), 4);
        assert_eq!(dl.index_size_bits(3), 32);
    }

    #[test]
    fn integers() {
        let dl = nvptx();
        let def = DataLayout::default();
        let mut t = Types::default();
        let i1 = t.add(TypeKind::Int(1));
        let i24 = t.add(TypeKind::Int(24));
        let i64t = t.add(TypeKind::Int(64));
        let i128t = t.add(TypeKind::Int(128));
        let i256 = t.add(TypeKind::Int(256));
        assert_eq!(dl.alloc_size(&t, i1), Some(1));
        assert_eq!(dl.store_size(&t, i24), Some(3));
        // i24 takes the alignment of the next larger entry (i32).
        assert_eq!(dl.alloc_size(&t, i24), Some(4));
        assert_eq!(dl.abi_align(&t, i64t), Some(8));
        assert_eq!(def.abi_align(&t, i64t), Some(4));
        assert_eq!(dl.abi_align(&t, i128t), Some(16));
        // Default layout: i128 falls back to the largest entry (i64: 4).
        assert_eq!(def.abi_align(&t, i128t), Some(4));
        assert_eq!(def.alloc_size(&t, i128t), Some(16));
        assert_eq!(dl.abi_align(&t, i256), Some(16));
        assert_eq!(dl.alloc_size(&t, i256), Some(32));
    }

    #[test]
    fn floats_and_vectors() {
        let dl = nvptx();
        let mut t = Types::default();
        let f80 = t.add(TypeKind::X86Fp80);
        let h = t.add(TypeKind::Half);
        let i8t = t.add(TypeKind::Int(8));
        let f32t = t.add(TypeKind::Float);
        let v2i8 = t.add(TypeKind::Vector {
            len: 2,
            elem: i8t,
            scalable: false,
        });
        let v3f = t.add(TypeKind::Vector {
            len: 3,
            elem: f32t,
            scalable: false,
        });
        let v4f = t.add(TypeKind::Vector {
            len: 4,
            elem: f32t,
            scalable: false,
        });
        let i1t = t.add(TypeKind::Int(1));
        let v4i1 = t.add(TypeKind::Vector {
            len: 4,
            elem: i1t,
            scalable: false,
        });
        let sv = t.add(TypeKind::Vector {
            len: 4,
            elem: f32t,
            scalable: true,
        });
        assert_eq!(dl.store_size(&t, f80), Some(10));
        assert_eq!(dl.abi_align(&t, f80), Some(16));
        assert_eq!(dl.alloc_size(&t, f80), Some(16));
        assert_eq!(dl.alloc_size(&t, h), Some(2));
        // v16:16 entry.
        assert_eq!(dl.abi_align(&t, v2i8), Some(2));
        // <3 x float>: 12 bytes, natural alignment 16.
        assert_eq!(dl.store_size(&t, v3f), Some(12));
        assert_eq!(dl.alloc_size(&t, v3f), Some(16));
        assert_eq!(dl.abi_align(&t, v4f), Some(16));
        // <4 x i1>: 4 bits, one byte (checked against opt-19's constant folder).
        assert_eq!(dl.alloc_size(&t, v4i1), Some(1));
        assert_eq!(dl.alloc_size(&t, sv), None);
    }

    #[test]
    fn structs_and_arrays() {
        let dl = nvptx();
        let mut t = Types::default();
        let i8t = t.add(TypeKind::Int(8));
        let i32t = t.add(TypeKind::Int(32));
        let i64t = t.add(TypeKind::Int(64));
        let p3 = t.add(TypeKind::Ptr(3));
        // { i8, i32, i8 }: offsets 0, 4, 8; size 12; align 4.
        let s = t.st(false, &[i8t, i32t, i8t]);
        let l = dl.struct_layout(&t, s).unwrap();
        assert_eq!(l.offsets.as_slice(), &[0, 4, 8]);
        assert_eq!((l.size, l.align, l.padded), (12, 4, true));
        assert_eq!(dl.alloc_size(&t, s), Some(12));
        // Packed: no padding, align 1.
        let sp = t.st(true, &[i8t, i32t, i8t]);
        let lp = dl.struct_layout(&t, sp).unwrap();
        assert_eq!(lp.offsets.as_slice(), &[0, 1, 5]);
        assert_eq!((lp.size, lp.padded), (6, false));
        assert_eq!(dl.abi_align(&t, sp), Some(1));
        // { i8, i64 } then [3 x that].
        let s2 = t.st(false, &[i8t, i64t]);
        assert_eq!(dl.alloc_size(&t, s2), Some(16));
        let arr = t.add(TypeKind::Array { len: 3, elem: s2 });
        assert_eq!(dl.alloc_size(&t, arr), Some(48));
        assert_eq!(dl.abi_align(&t, arr), Some(8));
        // { ptr addrspace(3), i8 }: 32-bit pointer.
        let s3 = t.st(false, &[p3, i8t]);
        assert_eq!(dl.alloc_size(&t, s3), Some(8));
        // Empty struct.
        let e = t.st(false, &[]);
        assert_eq!(dl.alloc_size(&t, e), Some(0));
        let opaque = t.add(TypeKind::Struct {
            packed: false,
            opaque: true,
        });
        assert_eq!(dl.alloc_size(&t, opaque), None);
        let void = t.add(TypeKind::Void);
        assert_eq!(dl.alloc_size(&t, void), None);
        // An array of an unsized type is unsized.
        let bad = t.add(TypeKind::Array { len: 2, elem: void });
        assert_eq!(dl.alloc_size(&t, bad), None);
    }

    #[test]
    fn aggregate_alignment_entry() {
        let dl = DataLayout::parse("a:32").unwrap();
        let mut t = Types::default();
        let i8t = t.add(TypeKind::Int(8));
        let s = t.st(false, &[i8t]);
        assert_eq!(dl.abi_align(&t, s), Some(4));
        // The alloc size rounds the 1-byte store size up to that alignment.
        assert_eq!(dl.store_size(&t, s), Some(1));
        assert_eq!(dl.alloc_size(&t, s), Some(4));
    }

    #[test]
    fn self_containing_type_does_not_overflow() {
        let dl = DataLayout::default();
        let mut t = Types::default();
        let s = t.st(false, &[]);
        t.fields[s.index()] = alloc::vec![s];
        assert_eq!(dl.alloc_size(&t, s), None);
    }

    #[test]
    fn parses_known_layouts() {
        for s in [
            NVPTX64_DATA_LAYOUT,
            NVPTX64_SHORT_PTR_DATA_LAYOUT,
            NVPTX32_DATA_LAYOUT,
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
            "E-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
            "e-p:64:64:64:32-ni:1:2-A5-G1-P0-S0",
            "",
        ] {
            let dl = DataLayout::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(dl.as_str(), s);
        }
        assert_eq!(DataLayout::parse("").unwrap(), DataLayout::default());
        let dl = DataLayout::parse(NVPTX32_DATA_LAYOUT).unwrap();
        assert_eq!(dl.pointer_size(0), 4);
        assert_eq!(DataLayout::parse("S0").unwrap().stack_align(), None);
        assert!(DataLayout::parse("S12").is_err());
        assert_eq!(dl.native_int_widths(), &[16, 32, 64]);
        let dl = DataLayout::parse("e-p:64:64:64:32-ni:1:2-A5-G1-S128").unwrap();
        assert_eq!(dl.index_size_bits(0), 32);
        assert!(dl.is_non_integral(2) && !dl.is_non_integral(0));
        assert_eq!(dl.alloca_addr_space(), 5);
        assert_eq!(dl.globals_addr_space(), 1);
        assert_eq!(dl.stack_align(), Some(16));
    }

    #[test]
    fn rejects_malformed_layouts_with_positions() {
        let cases: &[(&str, usize)] = &[
            ("e-i64:63", 6),
            ("e-q", 2),
            ("e--i8:8", 2),
            ("e-p3:32", 2),
            ("e-i64:x", 6),
            ("e-i8:16", 2),
            ("e-p:32:32:16", 2),
            ("e-p:0:32", 4),
            ("e-m:q", 2),
            ("e-ni:0", 5),
            ("e-i99999999999:8", 3),
            ("ee", 0),
        ];
        for &(s, pos) in cases {
            let err = DataLayout::parse(s).expect_err(s);
            assert_eq!(err.pos, pos, "{s}: {err}");
        }
    }
}

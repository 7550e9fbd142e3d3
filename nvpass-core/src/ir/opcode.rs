//! [`Opcode`]: the instruction classes of LLVM IR.

macro_rules! opcodes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, )*) => {
        /// Instruction opcode, one variant per LLVM IR instruction.
        ///
        /// [`Opcode::Other`] stands for instructions a host has that LLVM does
        /// not; passes treat them conservatively (unknown effects).
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Opcode {
            $( $(#[$doc])* $variant, )*
            /// An instruction outside LLVM's set.
            Other,
        }

        impl Opcode {
            /// Every LLVM opcode (excludes [`Opcode::Other`]).
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant,)*];

            /// The LLVM textual mnemonic (`"getelementptr"`); `"<other>"` for
            /// [`Opcode::Other`].
            pub const fn name(self) -> &'static str {
                match self {
                    $(Opcode::$variant => $text,)*
                    Opcode::Other => "<other>",
                }
            }

            /// Parses an LLVM mnemonic.
            pub fn from_name(name: &str) -> Option<Opcode> {
                match name {
                    $($text => Some(Opcode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

opcodes! {
    /// `ret`
    Ret = "ret",
    /// `br`
    Br = "br",
    /// `switch`
    Switch = "switch",
    /// `indirectbr`
    IndirectBr = "indirectbr",
    /// `invoke`
    Invoke = "invoke",
    /// `resume`
    Resume = "resume",
    /// `unreachable`
    Unreachable = "unreachable",
    /// `cleanupret`
    CleanupRet = "cleanupret",
    /// `catchret`
    CatchRet = "catchret",
    /// `catchswitch`
    CatchSwitch = "catchswitch",
    /// `callbr`
    CallBr = "callbr",
    /// `fneg`
    FNeg = "fneg",
    /// `add`
    Add = "add",
    /// `fadd`
    FAdd = "fadd",
    /// `sub`
    Sub = "sub",
    /// `fsub`
    FSub = "fsub",
    /// `mul`
    Mul = "mul",
    /// `fmul`
    FMul = "fmul",
    /// `udiv`
    UDiv = "udiv",
    /// `sdiv`
    SDiv = "sdiv",
    /// `fdiv`
    FDiv = "fdiv",
    /// `urem`
    URem = "urem",
    /// `srem`
    SRem = "srem",
    /// `frem`
    FRem = "frem",
    /// `shl`
    Shl = "shl",
    /// `lshr`
    LShr = "lshr",
    /// `ashr`
    AShr = "ashr",
    /// `and`
    And = "and",
    /// `or`
    Or = "or",
    /// `xor`
    Xor = "xor",
    /// `alloca`
    Alloca = "alloca",
    /// `load`
    Load = "load",
    /// `store`
    Store = "store",
    /// `getelementptr`
    GetElementPtr = "getelementptr",
    /// `fence`
    Fence = "fence",
    /// `cmpxchg`
    AtomicCmpXchg = "cmpxchg",
    /// `atomicrmw`
    AtomicRmw = "atomicrmw",
    /// `trunc`
    Trunc = "trunc",
    /// `zext`
    ZExt = "zext",
    /// `sext`
    SExt = "sext",
    /// `fptoui`
    FpToUi = "fptoui",
    /// `fptosi`
    FpToSi = "fptosi",
    /// `uitofp`
    UiToFp = "uitofp",
    /// `sitofp`
    SiToFp = "sitofp",
    /// `fptrunc`
    FpTrunc = "fptrunc",
    /// `fpext`
    FpExt = "fpext",
    /// `ptrtoint`
    PtrToInt = "ptrtoint",
    /// `inttoptr`
    IntToPtr = "inttoptr",
    /// `bitcast`
    BitCast = "bitcast",
    /// `addrspacecast`
    AddrSpaceCast = "addrspacecast",
    /// `cleanuppad`
    CleanupPad = "cleanuppad",
    /// `catchpad`
    CatchPad = "catchpad",
    /// `icmp`
    ICmp = "icmp",
    /// `fcmp`
    FCmp = "fcmp",
    /// `phi`
    Phi = "phi",
    /// `call`
    Call = "call",
    /// `select`
    Select = "select",
    /// `va_arg`
    VaArg = "va_arg",
    /// `extractelement`
    ExtractElement = "extractelement",
    /// `insertelement`
    InsertElement = "insertelement",
    /// `shufflevector`
    ShuffleVector = "shufflevector",
    /// `extractvalue`
    ExtractValue = "extractvalue",
    /// `insertvalue`
    InsertValue = "insertvalue",
    /// `landingpad`
    LandingPad = "landingpad",
    /// `freeze`
    Freeze = "freeze",
}

impl Opcode {
    /// Ends a basic block (`ret`, `br`, `switch`, `indirectbr`, `invoke`,
    /// `resume`, `unreachable`, `cleanupret`, `catchret`, `catchswitch`, `callbr`).
    pub const fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Ret
                | Opcode::Br
                | Opcode::Switch
                | Opcode::IndirectBr
                | Opcode::Invoke
                | Opcode::Resume
                | Opcode::Unreachable
                | Opcode::CleanupRet
                | Opcode::CatchRet
                | Opcode::CatchSwitch
                | Opcode::CallBr
        )
    }

    /// One of the thirteen LLVM cast instructions (`trunc` ... `addrspacecast`).
    pub const fn is_cast(self) -> bool {
        matches!(
            self,
            Opcode::Trunc
                | Opcode::ZExt
                | Opcode::SExt
                | Opcode::FpToUi
                | Opcode::FpToSi
                | Opcode::UiToFp
                | Opcode::SiToFp
                | Opcode::FpTrunc
                | Opcode::FpExt
                | Opcode::PtrToInt
                | Opcode::IntToPtr
                | Opcode::BitCast
                | Opcode::AddrSpaceCast
        )
    }

    /// A two-operand arithmetic or bitwise instruction (`add` ... `xor`).
    pub const fn is_binary(self) -> bool {
        matches!(
            self,
            Opcode::Add
                | Opcode::FAdd
                | Opcode::Sub
                | Opcode::FSub
                | Opcode::Mul
                | Opcode::FMul
                | Opcode::UDiv
                | Opcode::SDiv
                | Opcode::FDiv
                | Opcode::URem
                | Opcode::SRem
                | Opcode::FRem
                | Opcode::Shl
                | Opcode::LShr
                | Opcode::AShr
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
        )
    }

    /// `call`, `invoke` or `callbr`: has a callee and arguments.
    pub const fn is_call(self) -> bool {
        matches!(self, Opcode::Call | Opcode::Invoke | Opcode::CallBr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &op in Opcode::ALL {
            assert_eq!(Opcode::from_name(op.name()), Some(op));
        }
        assert_eq!(Opcode::from_name("<other>"), None);
        assert_eq!(Opcode::ALL.len(), 65);
    }

    #[test]
    fn classes() {
        let casts = Opcode::ALL.iter().filter(|o| o.is_cast()).count();
        assert_eq!(casts, 13);
        let terms = Opcode::ALL.iter().filter(|o| o.is_terminator()).count();
        assert_eq!(terms, 11);
        assert!(Opcode::Invoke.is_call() && Opcode::Invoke.is_terminator());
    }
}

//! NVPTX address spaces, the address-space lattice, and the NVVM alias rule.
//!
//! # One lattice, two descriptions
//!
//! Spec 003 ("Address-Space Vote Lattice") and spec 004 ("Address-Space
//! Lattice") describe the same flat lattice with different names for its
//! ends:
//!
//! | [`AsLattice`] | spec 003 (IPMSP votes) | spec 004 (MemorySpaceOpt) |
//! |---|---|---|
//! | [`AsLattice::Bottom`] | `UNDET` = 1000: no observation yet | `BOTTOM`: no evidence yet |
//! | [`AsLattice::Known`]`(s)` | the six concrete votes 1,3,4,5,6,7 | GLOBAL ... DISTRIBUTED_SHARED |
//! | [`AsLattice::Top`] | `POISON` = 2000: conflict, absorbing | `GENERIC` (addrspace 0): conflict |
//!
//! Both define the same operation (called *meet* in both documents, although
//! it moves up toward the top): bottom is the identity, equal elements stay,
//! distinct concrete spaces give top, top absorbs. [`AsLattice::meet`]
//! implements it once. The two "tops" are the same element seen through two
//! encodings: [`AsLattice::to_vote`] gives spec 003's numeric vote (2000),
//! [`AsLattice::to_addr_space`] gives spec 004's address space (0, generic).
//! Spec 003's `UNSET` (256) is a classifier's scratch state, not a lattice
//! element; it is [`UNSET_VOTE`] and, in code, `Option<AsLattice>::None`.
//!
//! [`AsMask`] is spec 003's per-argument bitmask ("argmask") that remembers
//! every concrete space seen at phi/select merges before collapsing it into
//! the lattice.
//!
//! [`nvvm_alias`] is spec 003's NVVM alias rule on address spaces.

use core::fmt;

/// An LLVM address-space number. Any `u32` is a valid address space; the
/// constants name the NVPTX ones.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct AddrSpace(pub u32);

impl AddrSpace {
    /// Generic (flat) address space, `addrspace(0)`.
    pub const GENERIC: AddrSpace = AddrSpace(0);
    /// Device global memory, `addrspace(1)`.
    pub const GLOBAL: AddrSpace = AddrSpace(1);
    /// CTA shared memory, `addrspace(3)`.
    pub const SHARED: AddrSpace = AddrSpace(3);
    /// Constant memory, `addrspace(4)`.
    pub const CONSTANT: AddrSpace = AddrSpace(4);
    /// Per-thread local memory, `addrspace(5)`.
    pub const LOCAL: AddrSpace = AddrSpace(5);
    /// Blackwell tensor memory, `addrspace(6)`.
    pub const TENSOR: AddrSpace = AddrSpace(6);
    /// Cluster distributed shared memory, `addrspace(7)`.
    pub const DIST_SHARED: AddrSpace = AddrSpace(7);
    /// Kernel parameter space, `addrspace(101)`.
    pub const PARAM: AddrSpace = AddrSpace(101);

    /// The PTX state-space name (`"global"`, `"shared::cta"` is spelled
    /// `"shared"` here), or `None` for non-NVPTX numbers.
    pub const fn ptx_name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "generic",
            1 => "global",
            3 => "shared",
            4 => "const",
            5 => "local",
            6 => "tmem",
            7 => "shared::cluster",
            101 => "param",
            _ => return None,
        })
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "addrspace({})", self.0)
    }
}

/// The six concrete NVPTX spaces of the lattice (an antichain).
///
/// Spec 003 "Lattice" table: GLOBAL 1, SHARED 3, CONST 4, LOCAL 5, TMEM 6,
/// DIST_SH 7.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum ConcreteSpace {
    /// `addrspace(1)`.
    Global,
    /// `addrspace(3)`.
    Shared,
    /// `addrspace(4)`.
    Const,
    /// `addrspace(5)`.
    Local,
    /// `addrspace(6)`.
    Tensor,
    /// `addrspace(7)`.
    DistShared,
}

impl ConcreteSpace {
    /// All six, in address-space order.
    pub const ALL: [ConcreteSpace; 6] = [
        ConcreteSpace::Global,
        ConcreteSpace::Shared,
        ConcreteSpace::Const,
        ConcreteSpace::Local,
        ConcreteSpace::Tensor,
        ConcreteSpace::DistShared,
    ];

    /// The address space.
    pub const fn addr_space(self) -> AddrSpace {
        AddrSpace(match self {
            ConcreteSpace::Global => 1,
            ConcreteSpace::Shared => 3,
            ConcreteSpace::Const => 4,
            ConcreteSpace::Local => 5,
            ConcreteSpace::Tensor => 6,
            ConcreteSpace::DistShared => 7,
        })
    }

    /// The concrete space of `a`; `None` for generic, param and any other
    /// number.
    pub const fn from_addr_space(a: AddrSpace) -> Option<ConcreteSpace> {
        Some(match a.0 {
            1 => ConcreteSpace::Global,
            3 => ConcreteSpace::Shared,
            4 => ConcreteSpace::Const,
            5 => ConcreteSpace::Local,
            6 => ConcreteSpace::Tensor,
            7 => ConcreteSpace::DistShared,
            _ => return None,
        })
    }
}

/// Spec 003's numeric vote for "no useful observation yet" (bottom).
///
/// Spec 003 "Lattice" table: `UNDET 1000`.
pub const UNDET_VOTE: u32 = 1000;

/// Spec 003's numeric vote for "conflict or unclassifiable use" (absorbing top).
///
/// Spec 003 "Lattice" table: `POISON 2000`.
pub const POISON_VOTE: u32 = 2000;

/// Spec 003's scratch sentinel used inside one classifier invocation; never
/// a stored vote and not a lattice element.
///
/// Spec 003 "Lattice" table: `UNSET 256`, "outside vote slots".
pub const UNSET_VOTE: u32 = 256;

/// An element of the address-space lattice (see the module docs for how it
/// serves both spec 003 and spec 004).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AsLattice {
    /// No evidence yet (003 `UNDET`, 004 `BOTTOM`).
    Bottom,
    /// All evidence agrees on one concrete space.
    Known(ConcreteSpace),
    /// Conflicting or unclassifiable evidence (003 `POISON`, 004 `GENERIC`).
    Top,
}

impl AsLattice {
    /// All eight elements.
    pub const ALL: [AsLattice; 8] = [
        AsLattice::Bottom,
        AsLattice::Known(ConcreteSpace::Global),
        AsLattice::Known(ConcreteSpace::Shared),
        AsLattice::Known(ConcreteSpace::Const),
        AsLattice::Known(ConcreteSpace::Local),
        AsLattice::Known(ConcreteSpace::Tensor),
        AsLattice::Known(ConcreteSpace::DistShared),
        AsLattice::Top,
    ];

    /// The lattice operation of spec 003 `meet_address_vote` and spec 004
    /// `meet`: bottom is the identity, equal elements stay, anything else
    /// (two distinct concrete spaces, or top) gives top.
    pub const fn meet(self, other: AsLattice) -> AsLattice {
        match (self, other) {
            (AsLattice::Bottom, x) | (x, AsLattice::Bottom) => x,
            (AsLattice::Known(a), AsLattice::Known(b)) if a as u8 == b as u8 => self,
            _ => AsLattice::Top,
        }
    }

    /// What observing a pointer in address space `a` contributes: a concrete
    /// space gives `Known`, anything else (generic, param, unknown numbers)
    /// gives `Top` because it cannot be specialized.
    pub const fn from_addr_space(a: AddrSpace) -> AsLattice {
        match ConcreteSpace::from_addr_space(a) {
            Some(s) => AsLattice::Known(s),
            None => AsLattice::Top,
        }
    }

    /// Spec 003 `meet_address_vote(old, observed)`: an invalid observation
    /// (`None`, the classifier failed) poisons the slot; a valid one is met
    /// with the old vote.
    pub const fn meet_observation(self, observed: Option<AddrSpace>) -> AsLattice {
        match observed {
            None => AsLattice::Top,
            Some(a) => self.meet(AsLattice::from_addr_space(a)),
        }
    }

    /// Spec 003's numeric vote: 1000, 1/3/4/5/6/7, or 2000.
    pub const fn to_vote(self) -> u32 {
        match self {
            AsLattice::Bottom => UNDET_VOTE,
            AsLattice::Known(s) => s.addr_space().0,
            AsLattice::Top => POISON_VOTE,
        }
    }

    /// Decodes a spec 003 vote; `None` for [`UNSET_VOTE`] and other numbers.
    pub const fn from_vote(vote: u32) -> Option<AsLattice> {
        match vote {
            UNDET_VOTE => Some(AsLattice::Bottom),
            POISON_VOTE => Some(AsLattice::Top),
            v => match ConcreteSpace::from_addr_space(AddrSpace(v)) {
                Some(s) => Some(AsLattice::Known(s)),
                None => None,
            },
        }
    }

    /// Spec 004's view: the address space a value may be given. `Top` is
    /// generic (0); `Bottom` has no address space yet (`None`).
    pub const fn to_addr_space(self) -> Option<AddrSpace> {
        match self {
            AsLattice::Bottom => None,
            AsLattice::Known(s) => Some(s.addr_space()),
            AsLattice::Top => Some(AddrSpace::GENERIC),
        }
    }
}

bitflags::bitflags! {
    /// Spec 003's per-argument "argmask": the set of address spaces seen
    /// flowing into a block argument through phi/select merges, kept as a
    /// set so no observation is lost before the lattice collapses it.
    ///
    /// Bit *n* stands for `addrspace(n)`; bit 0 (generic) records an
    /// observation that cannot be specialized. The spec gives no bit layout;
    /// this one makes a mask readable as a list of address spaces.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub struct AsMask: u8 {
        /// A generic or otherwise unspecializable observation.
        const GENERIC = 1 << 0;
        /// `addrspace(1)`.
        const GLOBAL = 1 << 1;
        /// `addrspace(3)`.
        const SHARED = 1 << 3;
        /// `addrspace(4)`.
        const CONST = 1 << 4;
        /// `addrspace(5)`.
        const LOCAL = 1 << 5;
        /// `addrspace(6)`.
        const TENSOR = 1 << 6;
        /// `addrspace(7)`.
        const DIST_SHARED = 1 << 7;
    }
}

impl AsMask {
    /// The mask recording one observation of address space `a` (concrete
    /// spaces set their bit; anything else sets [`AsMask::GENERIC`]).
    pub const fn from_addr_space(a: AddrSpace) -> AsMask {
        match ConcreteSpace::from_addr_space(a) {
            Some(s) => AsMask::from_bits_retain(1 << s.addr_space().0),
            None => AsMask::GENERIC,
        }
    }

    /// The mask of a lattice element: `Bottom` is empty, `Top` is
    /// [`AsMask::GENERIC`].
    pub const fn from_lattice(l: AsLattice) -> AsMask {
        match l {
            AsLattice::Bottom => AsMask::empty(),
            AsLattice::Known(s) => AsMask::from_addr_space(s.addr_space()),
            AsLattice::Top => AsMask::GENERIC,
        }
    }

    /// Collapses the set into the lattice: empty is `Bottom`, a single
    /// concrete space is `Known`, anything else is `Top`. This is a
    /// homomorphism: `(a | b).collapse() == a.collapse().meet(b.collapse())`.
    pub const fn collapse(self) -> AsLattice {
        let bits = self.bits();
        if bits == 0 {
            return AsLattice::Bottom;
        }
        if bits & AsMask::GENERIC.bits() != 0 || !bits.is_power_of_two() {
            return AsLattice::Top;
        }
        AsLattice::from_addr_space(AddrSpace(bits.trailing_zeros()))
    }
}

/// Result of [`nvvm_alias`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AliasResult {
    /// The two pointers may refer to the same memory.
    MayAlias,
    /// The two pointers never refer to the same memory.
    NoAlias,
}

/// The NVVM alias rule on address spaces, spec 003 "I08 Type Converter"
/// (`nvvm_alias`): a generic pointer may alias anything; pointers in two
/// different (non-generic) address spaces never alias; pointers in the same
/// space may alias.
pub const fn nvvm_alias(a: AddrSpace, b: AddrSpace) -> AliasResult {
    if a.0 == AddrSpace::GENERIC.0 || b.0 == AddrSpace::GENERIC.0 {
        AliasResult::MayAlias
    } else if a.0 != b.0 {
        AliasResult::NoAlias
    } else {
        AliasResult::MayAlias
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [AsLattice; 8] = AsLattice::ALL;

    #[test]
    fn meet_is_commutative() {
        for a in ALL {
            for b in ALL {
                assert_eq!(a.meet(b), b.meet(a), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn meet_is_associative() {
        for a in ALL {
            for b in ALL {
                for c in ALL {
                    assert_eq!(a.meet(b).meet(c), a.meet(b.meet(c)), "{a:?} {b:?} {c:?}");
                }
            }
        }
    }

    #[test]
    fn meet_is_idempotent() {
        for a in ALL {
            assert_eq!(a.meet(a), a);
        }
    }

    #[test]
    fn bottom_is_identity_and_top_absorbs() {
        for a in ALL {
            assert_eq!(a.meet(AsLattice::Bottom), a);
            assert_eq!(AsLattice::Top.meet(a), AsLattice::Top);
        }
    }

    #[test]
    fn distinct_concrete_spaces_meet_to_top() {
        for a in ConcreteSpace::ALL {
            for b in ConcreteSpace::ALL {
                let expected = if a == b {
                    AsLattice::Known(a)
                } else {
                    AsLattice::Top
                };
                assert_eq!(AsLattice::Known(a).meet(AsLattice::Known(b)), expected);
            }
        }
    }

    #[test]
    fn spec_003_vote_encoding() {
        assert_eq!(AsLattice::Bottom.to_vote(), 1000);
        assert_eq!(AsLattice::Top.to_vote(), 2000);
        let votes: [u32; 6] = ConcreteSpace::ALL.map(|s| AsLattice::Known(s).to_vote());
        assert_eq!(votes, [1, 3, 4, 5, 6, 7]);
        for a in ALL {
            assert_eq!(AsLattice::from_vote(a.to_vote()), Some(a));
        }
        assert_eq!(AsLattice::from_vote(UNSET_VOTE), None);
        assert_eq!(AsLattice::from_vote(0), None);
        assert_eq!(AsLattice::from_vote(2), None);
    }

    #[test]
    fn spec_003_meet_address_vote() {
        let g = Some(AddrSpace::GLOBAL);
        assert_eq!(
            AsLattice::Bottom.meet_observation(g),
            AsLattice::Known(ConcreteSpace::Global)
        );
        assert_eq!(AsLattice::Bottom.meet_observation(None), AsLattice::Top);
        assert_eq!(
            AsLattice::Known(ConcreteSpace::Global).meet_observation(g),
            AsLattice::Known(ConcreteSpace::Global)
        );
        assert_eq!(
            AsLattice::Known(ConcreteSpace::Global).meet_observation(Some(AddrSpace::SHARED)),
            AsLattice::Top
        );
        // Generic and param observations cannot be specialized.
        assert_eq!(
            AsLattice::Bottom.meet_observation(Some(AddrSpace::GENERIC)),
            AsLattice::Top
        );
        assert_eq!(
            AsLattice::Bottom.meet_observation(Some(AddrSpace::PARAM)),
            AsLattice::Top
        );
    }

    #[test]
    fn spec_004_view() {
        assert_eq!(AsLattice::Top.to_addr_space(), Some(AddrSpace::GENERIC));
        assert_eq!(AsLattice::Bottom.to_addr_space(), None);
        assert_eq!(
            AsLattice::Known(ConcreteSpace::Tensor).to_addr_space(),
            Some(AddrSpace::TENSOR)
        );
        for s in ConcreteSpace::ALL {
            assert_eq!(
                AsLattice::from_addr_space(s.addr_space()),
                AsLattice::Known(s)
            );
        }
    }

    #[test]
    fn mask_collapse_is_a_homomorphism() {
        for a in 0..=u8::MAX {
            let ma = AsMask::from_bits_retain(a) & AsMask::all();
            for b in 0..=u8::MAX {
                let mb = AsMask::from_bits_retain(b) & AsMask::all();
                assert_eq!((ma | mb).collapse(), ma.collapse().meet(mb.collapse()));
            }
        }
        for l in ALL {
            assert_eq!(AsMask::from_lattice(l).collapse(), l);
        }
        assert_eq!(AsMask::from_addr_space(AddrSpace::PARAM), AsMask::GENERIC);
        assert_eq!(
            (AsMask::SHARED | AsMask::SHARED).collapse(),
            AsLattice::Known(ConcreteSpace::Shared)
        );
    }

    #[test]
    fn concrete_spaces_round_trip_and_others_are_not_concrete() {
        for s in ConcreteSpace::ALL {
            assert_eq!(ConcreteSpace::from_addr_space(s.addr_space()), Some(s));
        }
        for n in [0, 2, 8, 100, 101, u32::MAX] {
            assert_eq!(ConcreteSpace::from_addr_space(AddrSpace(n)), None, "{n}");
            // Generic, param and unknown numbers are GENERIC in the lattice.
            assert_eq!(AsLattice::from_addr_space(AddrSpace(n)), AsLattice::Top);
        }
        let numbers: [u32; 6] = ConcreteSpace::ALL.map(|s| s.addr_space().0);
        assert_eq!(numbers, [1, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn ptx_state_space_names() {
        assert_eq!(AddrSpace::GENERIC.ptx_name(), Some("generic"));
        assert_eq!(AddrSpace::GLOBAL.ptx_name(), Some("global"));
        assert_eq!(AddrSpace::SHARED.ptx_name(), Some("shared"));
        assert_eq!(AddrSpace::CONSTANT.ptx_name(), Some("const"));
        assert_eq!(AddrSpace::LOCAL.ptx_name(), Some("local"));
        assert_eq!(AddrSpace::DIST_SHARED.ptx_name(), Some("shared::cluster"));
        assert_eq!(AddrSpace::PARAM.ptx_name(), Some("param"));
        assert_eq!(AddrSpace(2).ptx_name(), None);
    }

    #[test]
    fn argument_mask_bit_n_is_addrspace_n() {
        for s in ConcreteSpace::ALL {
            let m = AsMask::from_addr_space(s.addr_space());
            assert_eq!(m.bits(), 1u8 << s.addr_space().0);
            assert_eq!(m, AsMask::from_lattice(AsLattice::Known(s)));
            assert_eq!(m.collapse(), AsLattice::Known(s));
        }
        assert_eq!(AsMask::from_addr_space(AddrSpace::GENERIC), AsMask::GENERIC);
        assert_eq!(AsMask::from_lattice(AsLattice::Bottom), AsMask::empty());
        assert_eq!(AsMask::empty().collapse(), AsLattice::Bottom);
        // Two spaces, or a space and a generic observation, collapse to GENERIC.
        assert_eq!((AsMask::GLOBAL | AsMask::SHARED).collapse(), AsLattice::Top);
        assert_eq!((AsMask::LOCAL | AsMask::GENERIC).collapse(), AsLattice::Top);
    }

    #[test]
    fn alias_rule_cases() {
        use AliasResult::{MayAlias, NoAlias};
        assert_eq!(nvvm_alias(AddrSpace::GENERIC, AddrSpace::SHARED), MayAlias);
        assert_eq!(nvvm_alias(AddrSpace::LOCAL, AddrSpace::GENERIC), MayAlias);
        assert_eq!(nvvm_alias(AddrSpace::GLOBAL, AddrSpace::GLOBAL), MayAlias);
        assert_eq!(nvvm_alias(AddrSpace::GLOBAL, AddrSpace::SHARED), NoAlias);
        assert_eq!(nvvm_alias(AddrSpace::PARAM, AddrSpace::CONSTANT), NoAlias);
    }

    #[test]
    fn alias_rule() {
        let spaces = [0, 1, 3, 4, 5, 6, 7, 101].map(AddrSpace);
        for a in spaces {
            for b in spaces {
                let expected = if a == AddrSpace::GENERIC || b == AddrSpace::GENERIC || a == b {
                    AliasResult::MayAlias
                } else {
                    AliasResult::NoAlias
                };
                assert_eq!(nvvm_alias(a, b), expected, "{a} {b}");
                assert_eq!(nvvm_alias(a, b), nvvm_alias(b, a));
            }
        }
    }
}

//! Floating-point constant formatting, bit-exact with LLVM 19's
//! `WriteAPFloatInternal`.
//!
//! `float` and `double` constants are written as the decimal string that
//! `APFloat::toString(Str, 6, 0, false)` produces (six significant digits,
//! always written `d.dddddde±XX`) when that string parses back to exactly the
//! same double; otherwise as `0x` followed by the minimal upper-case hex
//! digits of the double's bits (a `float` is written as the double it
//! extends to). The decimal digits are produced by the same steps as
//! APFloat: exact multiplication by a power of five, a truncating division
//! that drops surplus digits, then round-half-up to six digits.

use crate::types::FloatKind;

/// Little-endian fixed-size unsigned big integer; 84 limbs hold
/// `2^53 * 5^1074`, the largest product the decimal conversion needs.
struct Big {
    d: [u32; 84],
    n: usize,
}

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big { d: [0; 84], n: 0 };
        b.d[0] = v as u32;
        b.d[1] = (v >> 32) as u32;
        b.n = 2;
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.n > 0 && self.d[self.n - 1] == 0 {
            self.n -= 1;
        }
    }

    fn is_zero(&self) -> bool {
        self.n == 0
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for i in 0..self.n {
            let p = self.d[i] as u64 * m as u64 + carry;
            self.d[i] = p as u32;
            carry = p >> 32;
        }
        if carry != 0 && self.n < self.d.len() {
            self.d[self.n] = carry as u32;
            self.n += 1;
        }
    }

    fn shl(&mut self, s: u32) {
        let limbs = (s / 32) as usize;
        let bits = s % 32;
        if self.n == 0 {
            return;
        }
        let new_n = (self.n + limbs + 1).min(self.d.len());
        for i in (0..new_n).rev() {
            let src = i as isize - limbs as isize;
            let hi = if src >= 0 && (src as usize) < self.n {
                self.d[src as usize]
            } else {
                0
            };
            let lo = if src >= 1 && ((src - 1) as usize) < self.n {
                self.d[(src - 1) as usize]
            } else {
                0
            };
            self.d[i] = if bits == 0 {
                hi
            } else {
                (hi << bits) | (lo >> (32 - bits))
            };
        }
        self.n = new_n;
        self.trim();
    }

    /// Divides in place, returning the remainder.
    fn div_small(&mut self, dv: u32) -> u32 {
        let mut rem = 0u64;
        for i in (0..self.n).rev() {
            let cur = (rem << 32) | self.d[i] as u64;
            self.d[i] = (cur / dv as u64) as u32;
            rem = cur % dv as u64;
        }
        self.trim();
        rem as u32
    }

    fn active_bits(&self) -> u32 {
        if self.n == 0 {
            return 0;
        }
        (self.n as u32 - 1) * 32 + (32 - self.d[self.n - 1].leading_zeros())
    }
}

/// A small stack buffer for the decimal text.
struct Buf {
    b: [u8; 40],
    n: usize,
}

impl Buf {
    fn push(&mut self, c: u8) {
        if self.n < self.b.len() {
            self.b[self.n] = c;
            self.n += 1;
        }
    }
    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.b[..self.n]).unwrap_or("")
    }
}

/// APFloat's `toString(Str, 6, 0, false)` for the finite value
/// `(-1)^neg * n * 2^e`.
fn to_decimal(neg: bool, n: u64, e: i32, out: &mut Buf) {
    const PREC: usize = 6;
    if neg {
        out.push(b'-');
    }
    if n == 0 {
        for &c in b"0.000000e+00" {
            out.push(c);
        }
        return;
    }
    let tz = n.trailing_zeros();
    let n = n >> tz;
    let mut exp = e + tz as i32;
    let mut sig = Big::from_u64(n);
    if exp > 0 {
        sig.shl(exp as u32);
        exp = 0;
    } else if exp < 0 {
        let mut t = (-exp) as u32;
        while t >= 13 {
            sig.mul_small(1_220_703_125); // 5^13
            t -= 13;
        }
        let mut p = 1u32;
        for _ in 0..t {
            p *= 5;
        }
        sig.mul_small(p);
    }
    // AdjustToPrecision(APInt&): drop surplus digits by truncating division.
    let bits = sig.active_bits();
    let required = (PREC as u32 * 196).div_ceil(59);
    if bits > required {
        let mut tens = (bits - required) * 59 / 196;
        exp += tens as i32;
        while tens >= 9 {
            sig.div_small(1_000_000_000);
            tens -= 9;
        }
        let mut p = 1u32;
        for _ in 0..tens {
            p *= 10;
        }
        if p > 1 {
            sig.div_small(p);
        }
    }
    // Digits, least significant first, trailing zeros dropped.
    let mut buf = [0u8; 48];
    let mut nd = 0usize;
    let mut in_trail = true;
    while !sig.is_zero() {
        let d = sig.div_small(10) as u8;
        if in_trail && d == 0 {
            exp += 1;
        } else if nd < buf.len() {
            buf[nd] = b'0' + d;
            nd += 1;
            in_trail = false;
        }
    }
    // AdjustToPrecision(buffer): round half up to PREC digits.
    if nd > PREC {
        let mut first = nd - PREC;
        if buf[first - 1] < b'5' {
            while first < nd && buf[first] == b'0' {
                first += 1;
            }
        } else {
            let mut i = first;
            while i < nd {
                if buf[i] == b'9' {
                    first += 1;
                    i += 1;
                } else {
                    buf[i] += 1;
                    break;
                }
            }
        }
        exp += first as i32;
        if first == nd {
            buf[0] = b'1';
            nd = 1;
        } else {
            buf.copy_within(first..nd, 0);
            nd -= first;
        }
    }
    exp += nd as i32 - 1;
    out.push(buf[nd - 1]);
    out.push(b'.');
    for i in 1..nd {
        out.push(buf[nd - 1 - i]);
    }
    for _ in 0..(PREC + 1 - nd) {
        out.push(b'0');
    }
    out.push(b'e');
    out.push(if exp >= 0 { b'+' } else { b'-' });
    let mut x = exp.unsigned_abs();
    let mut eb = [0u8; 8];
    let mut ne = 0;
    loop {
        eb[ne] = b'0' + (x % 10) as u8;
        ne += 1;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    if ne < 2 {
        eb[ne] = b'0';
        ne += 1;
    }
    for i in (0..ne).rev() {
        out.push(eb[i]);
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_hex_fixed(out: &mut alloc::vec::Vec<u8>, v: u64, digits: u32) {
    for i in (0..digits).rev() {
        out.push(HEX[((v >> (i * 4)) & 0xF) as usize]);
    }
}

fn push_hex_min(out: &mut alloc::vec::Vec<u8>, v: u64) {
    let digits = if v == 0 {
        1
    } else {
        (64 - v.leading_zeros()).div_ceil(4)
    };
    push_hex_fixed(out, v, digits);
}

/// Writes a `double` (given as bits) the way LLVM does.
pub(crate) fn write_double_bits(out: &mut alloc::vec::Vec<u8>, bits: u64) {
    let v = f64::from_bits(bits);
    if v.is_finite() {
        let neg = bits >> 63 != 0;
        let exp_field = ((bits >> 52) & 0x7FF) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        let (n, e) = if exp_field == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp_field - 1075)
        };
        let mut buf = Buf { b: [0; 40], n: 0 };
        to_decimal(neg, n, e, &mut buf);
        if let Ok(r) = buf.as_str().parse::<f64>() {
            if r == v {
                out.extend_from_slice(&buf.b[..buf.n]);
                return;
            }
        }
    }
    out.extend_from_slice(b"0x");
    push_hex_min(out, bits);
}

/// The bits of the double a `float` extends to (NaN payloads shifted as
/// APFloat does).
fn float_to_double_bits(b: u32) -> u64 {
    let sign = ((b >> 31) as u64) << 63;
    let exp = (b >> 23) & 0xFF;
    let mant = (b & 0x7F_FFFF) as u64;
    if exp == 0xFF {
        sign | (0x7FFu64 << 52) | (mant << 29)
    } else {
        (f32::from_bits(b) as f64).to_bits()
    }
}

/// For `double` and `float` constants, the bits of the double whose text
/// LLVM writes (a `float` is written as the double it extends to); `None`
/// for the kinds written as raw hex.
pub(crate) fn printed_double(k: FloatKind, bits: u128) -> Option<u64> {
    match k {
        FloatKind::Double => Some(bits as u64),
        FloatKind::Float => Some(float_to_double_bits(bits as u32)),
        _ => None,
    }
}

/// Writes a floating-point constant of kind `k` with raw bits `bits`.
pub(crate) fn write_float(out: &mut alloc::vec::Vec<u8>, k: FloatKind, bits: u128) {
    if let Some(d) = printed_double(k, bits) {
        write_double_bits(out, d);
        return;
    }
    match k {
        FloatKind::Double | FloatKind::Float => {}
        FloatKind::Half => {
            out.extend_from_slice(b"0xH");
            push_hex_fixed(out, bits as u64 & 0xFFFF, 4);
        }
        FloatKind::BFloat => {
            out.extend_from_slice(b"0xR");
            push_hex_fixed(out, bits as u64 & 0xFFFF, 4);
        }
        FloatKind::X86Fp80 => {
            out.extend_from_slice(b"0xK");
            push_hex_fixed(out, (bits >> 64) as u64 & 0xFFFF, 4);
            push_hex_fixed(out, bits as u64, 16);
        }
        FloatKind::Fp128 | FloatKind::PpcFp128 => {
            out.extend_from_slice(if k == FloatKind::Fp128 {
                b"0xL"
            } else {
                b"0xM"
            });
            push_hex_fixed(out, bits as u64, 16);
            push_hex_fixed(out, (bits >> 64) as u64, 16);
        }
    }
}

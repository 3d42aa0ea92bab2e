//! Edge weights wider than `i128`.
//!
//! The Dutch criteria are encoded lexicographically into one integer per edge:
//! every criterion gets a field wide enough to hold its sum over a whole
//! matching, so the widths add up to hundreds of bits for a few hundred players.
//! [`Wide`] is a fixed-width two's complement integer of `N` 64-bit limbs that the
//! blossom solver accepts as its [`Weight`](integer_blossom::Weight).

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// The arithmetic the pairing needs on an edge weight besides the solver's.
pub trait EdgeWeight: integer_blossom::Weight + std::hash::Hash {
    /// The weight's width in bits, sign included.
    const BITS: u32;
    /// A small non-negative value.
    fn from_u64(v: u64) -> Self;
    /// `self << by` (the value must stay representable).
    fn shl(self, by: u32) -> Self;
    /// `self + v`.
    fn add_u64(self, v: u64) -> Self {
        self + Self::from_u64(v)
    }
}

impl EdgeWeight for i128 {
    const BITS: u32 = 128;
    fn from_u64(v: u64) -> Self {
        i128::from(v)
    }
    fn shl(self, by: u32) -> Self {
        self << by
    }
}

/// A signed integer of `N` little-endian 64-bit limbs in two's complement.
#[derive(Clone, Copy)]
pub struct Wide<const N: usize>([u64; N]);

// By hand: the derived comparison calls `memcmp`, which dominated the
// matcher's profile.
impl<const N: usize> PartialEq for Wide<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0u64;
        for i in 0..N {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> std::hash::Hash for Wide<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for limb in self.0 {
            state.write_u64(limb);
        }
    }
}

impl<const N: usize> Wide<N> {
    fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    fn negate(self) -> Self {
        let mut out = [0u64; N];
        let mut carry = true;
        for (o, limb) in out.iter_mut().zip(self.0) {
            let (v, c) = (!limb).overflowing_add(u64::from(carry));
            *o = v;
            carry = c;
        }
        Wide(out)
    }

    fn shr1_logical(self) -> Self {
        let mut out = [0u64; N];
        for i in 0..N {
            let high = if i + 1 < N { self.0[i + 1] << 63 } else { 0 };
            out[i] = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide(")?;
        for limb in self.0.iter().rev() {
            write!(f, "{limb:016x}")?;
        }
        write!(f, ")")
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        let top = (self.0[N - 1] as i64).cmp(&(other.0[N - 1] as i64));
        if top != Ordering::Equal {
            return top;
        }
        for i in (0..N - 1).rev() {
            let c = self.0[i].cmp(&other.0[i]);
            if c != Ordering::Equal {
                return c;
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // Through `u128`, which the compiler turns into an add-with-carry
        // chain.
        let mut out = [0u64; N];
        let mut carry = 0u64;
        for i in 0..N {
            let s = u128::from(self.0[i]) + u128::from(rhs.0[i]) + u128::from(carry);
            out[i] = s as u64;
            carry = (s >> 64) as u64;
        }
        Wide(out)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    // The borrow is the sign bit of the wrapped difference.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = 0u64;
        for i in 0..N {
            let d = u128::from(self.0[i])
                .wrapping_sub(u128::from(rhs.0[i]))
                .wrapping_sub(u128::from(borrow));
            out[i] = d as u64;
            borrow = (d >> 127) as u64;
        }
        Wide(out)
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const N: usize> integer_blossom::Weight for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const ONE: Self = {
        let mut limbs = [0; N];
        limbs[0] = 1;
        Wide(limbs)
    };
    fn inf() -> Self {
        let mut limbs = [u64::MAX; N];
        limbs[N - 1] = u64::MAX >> 3;
        Wide(limbs)
    }
    fn double(self) -> Self {
        self.shl(1)
    }
    fn half(self) -> Self {
        // Rounds towards zero, as integer division does.
        if self.is_negative() {
            self.negate().shr1_logical().negate()
        } else {
            self.shr1_logical()
        }
    }
}

impl<const N: usize> EdgeWeight for Wide<N> {
    const BITS: u32 = 64 * N as u32;
    fn from_u64(v: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = v;
        Wide(limbs)
    }
    fn shl(self, by: u32) -> Self {
        // The weights are built field by field with shifts of a few bits.
        if by == 0 {
            return self;
        }
        if by < 64 {
            let mut out = [0u64; N];
            out[0] = self.0[0] << by;
            for i in 1..N {
                out[i] = (self.0[i] << by) | (self.0[i - 1] >> (64 - by));
            }
            return Wide(out);
        }
        let limbs = (by / 64) as usize;
        let bits = by % 64;
        let mut out = [0u64; N];
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use integer_blossom::Weight;

    #[test]
    fn arithmetic_agrees_with_i128() {
        let values: [i128; 7] = [0, 1, -1, 5, -7, 1 << 70, -(1 << 90) + 3];
        for &a in &values {
            for &b in &values {
                let wa = to_wide(a);
                let wb = to_wide(b);
                assert_eq!(to_wide(a + b), wa + wb);
                assert_eq!(to_wide(a - b), wa - wb);
                assert_eq!(a.cmp(&b), wa.cmp(&wb));
            }
            assert_eq!(to_wide(a / 2), to_wide(a).half());
            assert_eq!(to_wide(a * 2), to_wide(a).double());
        }
        assert_eq!(Wide::<4>::from_u64(3).shl(100), to_wide(3i128 << 100));
    }

    fn to_wide(v: i128) -> Wide<4> {
        let lo = v as u64;
        let hi = (v >> 64) as u64;
        let ext = if v < 0 { u64::MAX } else { 0 };
        Wide([lo, hi, ext, ext])
    }
}

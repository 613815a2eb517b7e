"""Per-game random numbers: xoshiro128** kept in the game's own state row.

A game's dice and shuffles depend only on its seed and its actions, never on the batch it
runs in. The four 32-bit words live in the ``rng`` field as int32 bit patterns.
"""

from __future__ import annotations

from numba import njit

from hon_env.spec import layout as L

_M32 = 0xFFFFFFFF


@njit(cache=True, inline="always")
def _rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & _M32


@njit(cache=True, inline="always")
def _to_i32(x):
    return x - 0x100000000 if x >= 0x80000000 else x


@njit(cache=True, inline="always")
def _fmix32(h):
    """MurmurHash3's 32-bit finaliser: a bijection that spreads every input bit."""
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    h ^= h >> 16
    return h


@njit(cache=True)
def seed_rng(s, b, seed):
    """Write the RNG words of game ``b`` from an integer ``seed`` (64 bits are used).

    Distinct seeds give distinct generator states: the first two words are a bijection of
    the seed's low and high halves.
    """
    seed = int(seed)
    lo = seed & _M32
    hi = (seed >> 32) & _M32
    w0 = _fmix32((lo + 0x9E3779B9) & _M32)
    w1 = _fmix32((hi ^ w0) & _M32)
    w2 = _fmix32((w0 + 0x7F4A7C15) & _M32)
    w3 = _fmix32((w1 + 0x3C6EF372) & _M32)
    if w0 == 0 and w1 == 0 and w2 == 0 and w3 == 0:
        w0 = 1
    s[b, L.RNG] = _to_i32(w0)
    s[b, L.RNG + 1] = _to_i32(w1)
    s[b, L.RNG + 2] = _to_i32(w2)
    s[b, L.RNG + 3] = _to_i32(w3)


@njit(cache=True)
def next_u32(s, b):
    """Advance game ``b``'s generator; return the next uint32 (as a non-negative int)."""
    s0 = int(s[b, L.RNG]) & _M32
    s1 = int(s[b, L.RNG + 1]) & _M32
    s2 = int(s[b, L.RNG + 2]) & _M32
    s3 = int(s[b, L.RNG + 3]) & _M32
    result = (_rotl((s1 * 5) & _M32, 7) * 9) & _M32
    t = (s1 << 9) & _M32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 11)
    s[b, L.RNG] = _to_i32(s0)
    s[b, L.RNG + 1] = _to_i32(s1)
    s[b, L.RNG + 2] = _to_i32(s2)
    s[b, L.RNG + 3] = _to_i32(s3)
    return result


@njit(cache=True)
def randint(s, b, n):
    """Uniform integer in ``[0, n)`` from game ``b``'s generator (``n`` >= 1)."""
    return (next_u32(s, b) * n) >> 32


@njit(cache=True)
def shuffle_slice(s, b, start, n):
    """Fisher-Yates shuffle of the ``n`` state columns starting at ``start`` in row ``b``."""
    for i in range(n - 1, 0, -1):
        j = randint(s, b, i + 1)
        tmp = s[b, start + i]
        s[b, start + i] = s[b, start + j]
        s[b, start + j] = tmp

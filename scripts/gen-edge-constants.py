#!/usr/bin/env python3
"""Writes (to stdout) filetests/filetests/interpret/edge-constants.atom: each integer binary op and compare
against an edge constant on either side, for i8/i16/i32/i64, with the expected results worked
out here from the operations' two's-complement definitions (not from atomc)."""
import sys

CONSTS = {
    8: [0, 1, -1, 127, -128],
    16: [0, 1, -1, 0x7fff, -0x8000, 0x7f],
    32: [0, 1, -1, 0x80000, 0xfffff, 0x7ffff, -0x80000, -0x80001, 0x7fffffff, -0x80000000],
    64: [0, 1, -1, 0x80000, 0xfffff, 0x7fffffff, -0x80000000, 0x80000000, 0xffffffff,
         0x100000000, 0x7fffffffffffffff, -0x8000000000000000],
}
INPUTS = {
    8: [0, 1, -1, 127, -128, 0x55],
    16: [0, 1, -1, 0x7fff, -0x8000, 0x1234],
    32: [0, 1, -1, 0x7fffffff, -0x80000000, 0x80000, 0x12345678],
    64: [0, 1, -1, 0x7fffffffffffffff, -0x8000000000000000, 0x80000000, 0x123456789abcdef],
}
OPS = ["iadd", "isub", "imul", "band", "bor", "bxor", "smin", "smax", "umin", "umax"]
CCS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def s(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def u(v, w):
    return v & ((1 << w) - 1)


def binop(op, a, b, w):
    return s({
        "iadd": lambda: a + b, "isub": lambda: a - b, "imul": lambda: a * b,
        "band": lambda: a & b, "bor": lambda: a | b, "bxor": lambda: a ^ b,
        "smin": lambda: min(s(a, w), s(b, w)), "smax": lambda: max(s(a, w), s(b, w)),
        "umin": lambda: min(u(a, w), u(b, w)), "umax": lambda: max(u(a, w), u(b, w)),
    }[op](), w)


def cmp(cc, a, b, w):
    sa, sb, ua, ub = s(a, w), s(b, w), u(a, w), u(b, w)
    return {"eq": sa == sb, "ne": sa != sb, "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb,
            "sge": sa >= sb, "ult": ua < ub, "ule": ua <= ub, "ugt": ua > ub, "uge": ua >= ub}[cc]


def lit(v):
    return hex(v) if v >= 0 else "-" + hex(-v)


def name(k):
    return ("m" + hex(-k)[2:]) if k < 0 else hex(k)[2:]



out = ["test interpret",
       "; Integer binary ops, compares and compare-and-branch against edge constants on either",
       "; side: around the 20-bit immediate field of sm_50's ALU forms (0x80000, 0xfffff), the",
       "; 32-bit edges and +-1, 0. One thread per input; the expected values are two's-complement",
       "; arithmetic worked out independently of atomc (written by a generator: one kernel per",
       "; type and side for the ten binary ops against every constant, one for the ten compares as",
       "; branches).",
       ""]
STRIDE = 16  # results per thread, a power of two (the ops fill the first ten)


def index(ty, size, base, first, stride):
    """Lines computing `v{first+3}` = base + tid * size * stride, from v{first}.. on."""
    return [f"    v{first} = uextend.i64 v2",
            f"    v{first + 1} = iconst.i64 {size * stride}",
            f"    v{first + 2} = imul v{first}, v{first + 1}",
            f"    v{first + 3} = ptr_add {base}, v{first + 2}"]


for w in (8, 16, 32, 64):
    ty, size = f"i{w}", w // 8
    xs = INPUTS[w]
    n = len(xs)
    ks = CONSTS[w]
    per = len(OPS) * len(ks)
    stride = 1 << (per - 1).bit_length()  # results per thread, a power of two
    for side in ("r", "l"):
        f = f"%{side}_{ty}"
        out.append(f"function {f}(ptr.global, ptr.global) {{")
        out.append("block0(v0: ptr.global, v1: ptr.global):")
        out.append("    v2 = thread_id.x")
        out += index(ty, size, "v0", 3, 1)
        out.append(f"    v7 = load.{ty} v6")
        out += index(ty, size, "v1", 8, stride)
        v = 12
        slot = 0
        for k in ks:
            out.append(f"    v{v} = iconst.{ty} {lit(s(k, w))}")
            kv = v
            v += 1
            first = v
            for op in OPS:
                args = f"v7, v{kv}" if side == "r" else f"v{kv}, v7"
                out.append(f"    v{v} = {op} {args}")
                v += 1
            for r in range(first, v):
                off = f"+{slot * size}" if slot else ""
                out.append(f"    store v{r}, v11{off}")
                slot += 1
        out.append("    return")
        out.append("}")
        exp = []
        for x in xs:
            row = []
            for k in ks:
                a, b = (x, k) if side == "r" else (k, x)
                row += [binop(op, a, b, w) for op in OPS]
            exp += row + [0] * (stride - len(row))
        out.append(f"; run: block {n} a: {ty}[{n}] = [" + ", ".join(lit(s(x, w)) for x in xs)
                   + f"], o: {ty}[{n * stride}], {f}(a, o) => o == [" + ", ".join(lit(r) for r in exp) + "]")
        out.append("")
        # Each compare as a branch condition: bit i of the word for constant j is set where
        # compare i took its branch.
        g = f"%{side}_cmp_{ty}"
        cstride = 1 << (len(ks) - 1).bit_length()
        out.append(f"function {g}(ptr.global, ptr.global) {{")
        out.append("block0(v0: ptr.global, v1: ptr.global):")
        out.append("    v2 = thread_id.x")
        out += index(ty, size, "v0", 3, 1)
        out.append(f"    v7 = load.{ty} v6")
        out += index(ty, 4, "v1", 8, cstride)
        out.append("    v12 = iconst.i32 0")
        out.append("    jump block1(v12)")
        v, b = 13, 1
        for j, k in enumerate(ks):
            out.append(f"block{b}(v{v}: i32):")
            out.append(f"    v{v + 1} = iconst.{ty} {lit(s(k, w))}")
            acc, kv = v, v + 1
            v += 2
            for i, cc in enumerate(CCS):
                args = f"v7, v{kv}" if side == "r" else f"v{kv}, v7"
                last = i == len(CCS) - 1
                out.append(f"    v{v} = icmp {cc} {args}")
                out.append(f"    brif v{v}, block{b + 1}, block{b + 2}(v{acc})")
                out.append(f"block{b + 1}:")
                out.append(f"    v{v + 1} = iconst.i32 {1 << i}")
                out.append(f"    v{v + 2} = bor v{acc}, v{v + 1}")
                out.append(f"    jump block{b + 2}(v{v + 2})")
                out.append(f"block{b + 2}(v{v + 3}: i32):")
                acc = v + 3
                v += 4
                b += 2
                if not last:
                    continue
            off = f"+{4 * j}" if j else ""
            out.append(f"    store v{acc}, v11{off}")
            out.append(f"    v{v} = iconst.i32 0")
            out.append(f"    jump block{b + 1}(v{v})")
            v += 1
            b += 1
        out.append(f"block{b}(v{v}: i32):")
        out.append("    return")
        out.append("}")
        exp = []
        for x in xs:
            row = []
            for k in ks:
                a, b2 = (x, k) if side == "r" else (k, x)
                row.append(sum(1 << i for i, cc in enumerate(CCS) if cmp(cc, a, b2, w)))
            exp += row + [0] * (cstride - len(row))
        out.append(f"; run: block {n} a: {ty}[{n}] = [" + ", ".join(lit(s(x, w)) for x in xs)
                   + f"], o: i32[{n * cstride}], {g}(a, o) => o == [" + ", ".join(lit(r) for r in exp) + "]")
        out.append("")
sys.stdout.write("\n".join(out))

"""Small helpers shared by the suite modules."""
from __future__ import annotations

import numpy as np


def count_label(n: int) -> str:
    """16777216 -> '16M', 65536 -> '64K', 1000 -> '1000'."""
    for shift, unit in ((20, "M"), (10, "K")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def round_up(n: int, multiple: int) -> int:
    return (n + multiple - 1) // multiple * multiple


def uniform(rng: np.random.Generator, shape, low=0.0, high=1.0, dtype=np.float32) -> np.ndarray:
    return rng.uniform(low, high, shape).astype(dtype)

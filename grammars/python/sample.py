"""Inventory helpers."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Optional

LIMIT = 10 ** 3


@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list[str] = field(default_factory=list)

    def total(self, count: int = 1) -> float:
        return self.price * count

    @property
    def label(self):
        return f"{self.name} ({self.price:.2f})"


class Inventory(dict):
    def __init__(self, items: Iterable[Item] = ()):
        super().__init__()
        for item in items:
            self[item.name] = item

    def cheapest(self) -> Optional[Item]:
        if not self:
            return None
        return min(self.values(), key=lambda i: i.price)

    async def refresh(self, source):
        async for row in source:
            self[row["name"]] = Item(**row)


def parse(lines, *, strict=False, **options):
    result = []
    for n, line in enumerate(lines):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        elif "=" in line:
            key, _, value = line.partition("=")
            result.append((key, value))
        else:
            if strict:
                raise ValueError(f"line {n}: {line!r}")
    while len(result) > LIMIT:
        result.pop()
    try:
        size = os.path.getsize(options.get("path", "."))
    except (OSError, KeyError) as e:
        size = -1
    finally:
        pass
    squares = {k: len(v) ** 2 for k, v in result if v}
    evens = [x for x in range(10) if x % 2 == 0]
    with open(os.devnull) as f, open(os.devnull) as g:
        assert f is not g, "distinct"
    global LIMIT
    del evens[0]
    return result, size, squares, (lambda: None)


if __name__ == "__main__":
    print(parse(["a=1", "# c", "b=2"], strict=True))

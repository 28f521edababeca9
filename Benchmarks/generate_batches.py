#!/usr/bin/env python3
"""The batch-heavy benchmark data of issue 28 (`bench.py --target run-batches`).

    python3 Benchmarks/generate_batches.py [--out DIR] [--orders N]

Writes into DIR (default .build/bench-data/batches):
  batches.yaml     a version 2 book: 24 fruits, recipes 4 levels deep (6 per
                   level), every recipe in the long form with a yield of 2 to
                   5, each using 2 recipes of the level below and 1 to 2
                   fruits; 8 menu items, each using 1 to 2 top-level recipes
                   and a fruit
  flat.yaml        the same book with every yield removed (short form): each
                   use of a recipe makes it afresh, as in version 1
  orders.txt       N order lines (default 10,000,000) uniform over the menu,
                   a `restock FRUIT N` after every 10th; the opening stock
                   (10^12 of each fruit) serves every order, so both books
                   do the whole work of making each one

Deterministic (seeded); a stamp file skips the work when nothing changed.
"""

import argparse
import hashlib
import json
import os
import random
import sys

SEED = 28
LEVELS = 4
PER_LEVEL = 6
FRUITS = ["fruit-%02d" % i for i in range(24)]
MENU = ["drink-%d" % i for i in range(8)]


def book(rng):
    """(recipes by level, each (id, yield, children, fruits)), menu items (id, recipes, fruit)."""
    levels = []
    for level in range(LEVELS):
        recipes = []
        for i in range(PER_LEVEL):
            rid = "r%d-%d" % (level, i)
            children = [] if level == 0 else rng.sample([r[0] for r in levels[level - 1]], 2)
            fruits = rng.sample(FRUITS, rng.randint(1, 2))
            recipes.append((rid, rng.randint(2, 5), [(c, rng.randint(1, 3)) for c in children],
                            [(f, rng.randint(1, 3)) for f in fruits]))
        levels.append(recipes)
    top = [r[0] for r in levels[-1]]
    menu = [(m, [(r, rng.randint(1, 2)) for r in rng.sample(top, rng.randint(1, 2))], (rng.choice(FRUITS), 1)) for m in MENU]
    return levels, menu


def write_book(path, levels, menu, yields):
    out = ["version: 2\n", "fruits:\n"]
    out += ["  %s: { cost: %d, pack: %d }\n" % (f, 100 + 10 * i, 1 + i % 6) for i, f in enumerate(FRUITS)]
    out.append("stock:\n")
    out += ["  %s: 1000000000000\n" % f for f in FRUITS]
    out.append("recipes:\n")
    for recipes in levels:
        for rid, yield_, children, fruits in recipes:
            ingredients = ", ".join("%s: %d" % pair for pair in children + fruits)
            if yields:
                out.append("  %s: { yield: %d, recipe: { %s } }\n" % (rid, yield_, ingredients))
            else:
                out.append("  %s: { %s }\n" % (rid, ingredients))
    out.append("menu:\n")
    for mid, recipes, fruit in menu:
        ingredients = ", ".join("%s: %d" % pair for pair in recipes + [fruit])
        out.append("  %s: { price: 5000, recipe: { %s } }\n" % (mid, ingredients))
    with open(path, "w", encoding="ascii") as f:
        f.write("".join(out))


def write_orders(path, orders, rng):
    restocks = ["restock %s %d\n" % (f, n) for f in FRUITS for n in range(20, 200, 20)]
    plain = [m + "\n" for m in MENU]
    with open(path, "w", encoding="ascii") as f:
        chunk = []
        for block in range(orders // 10):
            chunk.extend(rng.choices(plain, k=10))
            chunk.append(restocks[rng.randrange(len(restocks))])
            if len(chunk) >= 110_000:
                f.write("".join(chunk))
                chunk.clear()
        chunk.extend(rng.choices(plain, k=orders % 10))
        f.write("".join(chunk))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=".build/bench-data/batches")
    parser.add_argument("--orders", type=int, default=10_000_000)
    args = parser.parse_args(argv)
    with open(__file__, "rb") as f:
        stamp = json.dumps({"script": hashlib.sha256(f.read()).hexdigest()[:16], "orders": args.orders})
    stamp_path = os.path.join(args.out, ".stamp")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return
    os.makedirs(args.out, exist_ok=True)
    print("generating %s ..." % args.out, file=sys.stderr, flush=True)
    rng = random.Random(SEED)
    levels, menu = book(rng)
    write_book(os.path.join(args.out, "batches.yaml"), levels, menu, yields=True)
    write_book(os.path.join(args.out, "flat.yaml"), levels, menu, yields=False)
    write_orders(os.path.join(args.out, "orders.txt"), args.orders, rng)
    with open(stamp_path, "w") as f:
        f.write(stamp)


if __name__ == "__main__":
    main()

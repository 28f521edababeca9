#!/usr/bin/env python3
"""The substitutes benchmark books of issue 37 (`bench.py --target run-substitutes`).

    python3 Benchmarks/generate_substitutes.py [--out DIR]

Writes into DIR (default .build/bench-data/substitutes) two books, each the
canonical menu (recipes/menu.yaml) with a version 2 fruit file:
  subs/     each of the five fruits lists two stand-ins, a frozen one (ratio
            1, a stock of 10^12) and a puree (ratio 2, none in stock), so
            every order the fruit cannot serve is covered by the frozen fruit
            after the puree is found short: the rule's whole path, order after
            order, once the opening stock of 10 runs out
  plain/    the same fruit file without the `substitutes:` keys: an order the
            fruit cannot serve is refused
Both replay the same script (the canonical orders, orders-*.txt), so the row
is the cost of the substitutes rule against a refusal.
"""

import argparse
import os

FRUITS = ["strawberry", "banana", "pineapple", "kiwi", "mango"]


def fruit_file(substitutes):
    out = ["version: 2\n", "fruits:\n"]
    for fruit in FRUITS:
        stand_ins = " substitutes: { %s-puree: 2, frozen-%s: 1 }," % (fruit, fruit) if substitutes else ""
        out.append("  %s: {%s cost: 300 }\n" % (fruit, stand_ins))
        out.append("  %s-puree: { cost: 150 }\n" % fruit)
        out.append("  frozen-%s: { cost: 200 }\n" % fruit)
    out.append("stock:\n")
    for fruit in FRUITS:
        out.append("  %s: 10\n  %s-puree: 0\n  frozen-%s: 1000000000000\n" % (fruit, fruit, fruit))
    return "".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=".build/bench-data/substitutes")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "recipes", "menu.yaml"), encoding="utf-8") as f:
        menu = f.read().replace("version: 1", "version: 2", 1)
    for name, substitutes in (("subs", True), ("plain", False)):
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        for file, text in (("fruits.yaml", fruit_file(substitutes)), ("menu.yaml", menu)):
            path = os.path.join(folder, file)
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)


if __name__ == "__main__":
    main()

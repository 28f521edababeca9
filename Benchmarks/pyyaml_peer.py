#!/usr/bin/env python3
"""A peer for the lint benchmarks: PyYAML with libyaml's CSafeLoader and the
same short validation as the Yams peer (unknown fruits, zero amounts).

    python3 Benchmarks/pyyaml_peer.py PATH ...   # "files: N, items: N, problems: N"

Exit 0 when clean, 1 with problems, 2 on a bad path or file, 3 when PyYAML
has no libyaml (CSafeLoader) here.
"""

import os
import sys

try:
    import yaml
    from yaml import CSafeLoader
except ImportError:
    print("pyyaml_peer: PyYAML with libyaml (yaml.CSafeLoader) is not installed", file=sys.stderr)
    sys.exit(3)


def recipe_files(paths):
    """Every *.yaml / *.yml under the paths, hidden entries skipped, sorted."""
    found = []
    for path in paths:
        if not os.path.exists(path):
            print("pyyaml_peer: no such file or directory: '%s'" % path, file=sys.stderr)
            sys.exit(2)
        if not os.path.isdir(path):
            found.append(path)
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found.extend(os.path.join(root, f) for f in files
                         if not f.startswith(".") and f.endswith((".yaml", ".yml")))
    return sorted(found)


def problems(documents):
    fruits, composites = set(), set()
    for doc in documents:
        fruits.update(doc.get("fruits") or {})
        composites.update(doc.get("recipes") or {})
        composites.update(doc.get("menu") or {})
    count = 0

    def check(recipe):
        nonlocal count
        for ingredient, amount in (recipe or {}).items():
            if ingredient not in fruits and ingredient not in composites:
                count += 1
            if not isinstance(amount, int) or amount <= 0:
                count += 1

    for doc in documents:
        for fruit, amount in (doc.get("stock") or {}).items():
            if fruit not in fruits or not isinstance(amount, int) or amount < 0:
                count += 1
        for recipe in (doc.get("recipes") or {}).values():
            check(recipe)
        for item in (doc.get("menu") or {}).values():
            check(item.get("recipe") if isinstance(item, dict) else None)
    return count


def main(argv):
    files = recipe_files(argv or ["recipes"])
    documents = []
    for path in files:
        try:
            with open(path, "rb") as f:
                documents.extend(d for d in yaml.load_all(f, Loader=CSafeLoader) if d is not None)
        except (OSError, yaml.YAMLError) as error:
            print("%s: error: %s" % (path, error), file=sys.stderr)
            return 2
    items = sum(len(doc.get("menu") or {}) for doc in documents)
    found = problems(documents)
    print("files: %d, items: %d, problems: %d" % (len(files), items, found))
    return 0 if found == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

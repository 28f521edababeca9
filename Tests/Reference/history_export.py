"""A journal export written independently of the Swift code: the format
`juice-serve journal export` writes and `juice-run plan --history` reads
(Sources/JuiceShop/JournalExport.swift, docs/planning.md), from its
description only.

- JSONL: one JSON object per line, the journal entry's own keys (`sequence`,
  `day`, `time`, `user`, `till`, `kind` and the kind's fields) plus `shop`
  and `at` (ISO 8601 UTC with milliseconds).
- CSV: the header `shop,sequence,day,at,user,till,kind,item,quantity,price,
  cost,fruit,target,resolves,client_id,detail`, then one RFC 4180 record per
  entry whose `detail` is the JSON object above.

`ExportWriter` writes day-open, order, refusal, void, refund and day-close
entries; `poisson_history` writes many days of them from a known Poisson mix.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
import random

COLUMNS = ["shop", "sequence", "day", "at", "user", "till", "kind", "item", "quantity", "price",
           "cost", "fruit", "target", "resolves", "client_id", "detail"]


class ExportWriter:
    """Entries of one or more shops, numbered from 1 in the order written."""

    def __init__(self, shop: str = "main"):
        self.shop = shop
        self.entries: list[dict] = []
        self.sequence = 0

    def _add(self, day: str, kind: str, **fields) -> int:
        self.sequence += 1
        moment = datetime.datetime.fromisoformat(day).replace(hour=9, tzinfo=datetime.timezone.utc)
        time = int(moment.timestamp() * 1000) + self.sequence
        entry = {"sequence": self.sequence, "day": day, "time": time, "user": "anna", "till": "front", "kind": kind}
        entry.update(fields)
        self.entries.append({"shop": self.shop, "entry": entry})
        return self.sequence

    def day_open(self, day: str) -> int:
        return self._add(day, "day-open", fruit=[], servings=[])

    def order(self, day: str, item: str, quantity: int = 1, resolves: int | None = None) -> int:
        fields = dict(clientID=f"c{self.sequence + 1}", item=item, quantity=quantity, price=100 * quantity,
                      fruit=[{"id": "apple", "count": quantity}], batches=[], servings=[], substitutions=[])
        if resolves is not None:
            fields["resolves"] = resolves
        return self._add(day, "order", **fields)

    def refusal(self, day: str, item: str, quantity: int = 1) -> int:
        return self._add(day, "refusal", clientID=f"c{self.sequence + 1}", item=item, quantity=quantity,
                         shortages=[{"fruit": "apple", "need": quantity, "have": 0}])

    def void(self, day: str, order: int, item: str) -> int:
        return self._add(day, "void", order=order, clientID=f"c{order}", item=item, fruit=[], servings=[])

    def refund(self, day: str, order: int, item: str) -> int:
        return self._add(day, "refund", order=order, clientID=f"c{order}", item=item, fruit=[], servings=[])

    def day_close(self, day: str) -> int:
        return self._add(day, "day-close")

    @staticmethod
    def _at(time: int) -> str:
        moment = datetime.datetime.fromtimestamp(time / 1000, datetime.timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{time % 1000:03d}Z"

    def _object(self, item: dict) -> dict:
        return {**item["entry"], "shop": item["shop"], "at": self._at(item["entry"]["time"])}

    def jsonl(self) -> str:
        return "".join(json.dumps(self._object(item), sort_keys=True) + "\n" for item in self.entries)

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(COLUMNS)
        for item in self.entries:
            entry = item["entry"]
            kind = entry["kind"]
            fruit = " ".join(f"{f['id']}:{f['count']}" for f in entry.get("fruit", [])) if kind in ("order", "void", "refund") else ""
            writer.writerow([
                item["shop"], entry["sequence"], entry["day"], self._at(entry["time"]), entry["user"], entry["till"], kind,
                entry.get("item", ""), entry.get("quantity", "") if kind in ("order", "refusal") else "", entry.get("price", ""),
                "", fruit, entry.get("order", ""), entry.get("resolves", ""), entry.get("clientID", ""),
                json.dumps(self._object(item), sort_keys=True),
            ])
        return out.getvalue()


def poisson(rng: random.Random, mean: float) -> int:
    """A Poisson draw by inversion (means here are small)."""
    u, k = rng.random(), 0
    p = math.exp(-mean)
    cumulative = p
    while u > cumulative and k < 10_000:
        k += 1
        p *= mean / k
        cumulative += p
    return k


def poisson_history(means: dict[str, list[float]], days: int, seed: int, first: datetime.date = datetime.date(2026, 1, 5),
                    shop: str = "main") -> ExportWriter:
    """`days` shop days from `first`, each opened and closed, where item i's
    units on a day of weekday w (0 = Monday) are Poisson with mean
    `means[i][w]` (a list of 7, or of 1 for every day). Each unit demanded
    is written as an order (of 1 or 2 units), a refusal, or a refusal made
    good by an order that `resolves` it (to be counted once). Each day also
    carries orders that are voided, and a refund of a counted order, which
    must not change the demand learnt."""
    rng = random.Random(seed)
    writer = ExportWriter(shop)
    for index in range(days):
        date = first + datetime.timedelta(days=index)
        day = date.isoformat()
        writer.day_open(day)
        for item, by_weekday in means.items():
            mean = by_weekday[date.weekday()] if len(by_weekday) == 7 else by_weekday[0]
            units = poisson(rng, mean)
            while units > 0:
                quantity = min(units, rng.choice([1, 1, 2]))
                units -= quantity
                roll = rng.random()
                if roll < 0.7:
                    order = writer.order(day, item, quantity)
                    if rng.random() < 0.05:
                        writer.refund(day, order, item)
                elif roll < 0.85:
                    writer.refusal(day, item, quantity)
                else:
                    refused = writer.refusal(day, item, quantity)
                    writer.order(day, item, quantity, resolves=refused)
            if rng.random() < 0.3:
                mistake = writer.order(day, item, rng.choice([1, 2]))
                writer.void(day, mistake, item)
        writer.day_close(day)
    return writer

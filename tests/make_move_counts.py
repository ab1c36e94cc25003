"""Write tests/data/move_counts.json: legal-move counts for fixed hands, by the reference.

    python tests/make_move_counts.py

The counts come from tests/reference.py alone (no ddz), so the core is checked against data
it had no hand in. Each entry: preset, hand, table (a reading of another hand's cards, or
null), and the number of legal moves (pass included when answering).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import reference as ref

PRESETS = {
    "classic": {},
    "douzero": ref.DOUZERO_OPTIONS,
    "rlcard": ref.RLCARD_OPTIONS,
    "two-player": {"excluded_ranks": "34"},
    "uno-landlord": {"action_cards": 2},
    "endgame": {},  # the classic move set; the endgame preset differs only in seats and bidding
}
DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


def deck_for(name: str) -> str:
    if name == "two-player":
        return DECK.replace("3", "").replace("4", "")
    return DECK + ("SSVV" if name == "uno-landlord" else "")


def main() -> None:
    rng = random.Random(20261130)
    entries = []
    for name, options in PRESETS.items():
        rules = ref.make_rules(**options)
        deck = list(deck_for(name))
        for i in range(40):
            rng.shuffle(deck)
            hand = "".join(sorted(deck[:20] if i % 2 else deck[:17], key=ref.RANKS.index))
            leads = ref.moves(ref.parse(hand), None, rules)
            entries.append({"preset": name, "hand": hand, "table": None, "count": len(leads)})
            other = ref.moves(ref.parse("".join(deck[20:37])), None, rules)
            tables = sorted(m for m in other if m.type not in ("SKIP", "REVERSE"))
            table = rng.choice(tables)
            answers = ref.moves(ref.parse(hand), table, rules)
            entries.append(
                {
                    "preset": name,
                    "hand": hand,
                    "table": {
                        "type": table.type,
                        "rank": table.rank,
                        "length": table.length,
                        "cards": ref.fmt(table.cards),
                    },
                    "count": len(answers),
                }
            )
    path = Path(__file__).resolve().parent / "data" / "move_counts.json"
    path.write_text(json.dumps(entries, indent=1) + "\n")
    print(f"wrote {len(entries)} counts to {path}")


if __name__ == "__main__":
    main()

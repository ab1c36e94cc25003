"""Write src/ddz/data/rlcard_answer_order.txt.gz: RLCard 1.2.0's answer order.

    pip install rlcard==1.2.0 && python tests/make_rlcard_order.py

RLCard lists the answers to a move (``rlcard.games.doudizhu.utils.get_gt_cards``) by walking
its ``TYPE_CARD`` table: per type, the weights in ascending order and, per weight, the cards in
the table's order, which is not always the order of RLCard's action ids. The file holds RLCard's
action ids in that walk's order (the pass, id 27471, is not in the table), so
``ddz.compat.rlcard`` can list answers as RLCard does without RLCard. Derived from RLCard's
data (MIT licensed), like ``rlcard_actions.txt.gz``.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from rlcard.games.doudizhu.utils import ACTION_2_ID, TYPE_CARD

OUT = Path(__file__).resolve().parents[1] / "src" / "ddz" / "data" / "rlcard_answer_order.txt.gz"


def main() -> None:
    ids = [
        ACTION_2_ID[cards]
        for weights in TYPE_CARD.values()
        for cards_list in sorted(weights.items(), key=lambda item: int(item[0]))
        for cards in cards_list[1]
    ]
    assert sorted(ids) == list(range(len(ids))), "every move once"
    OUT.write_bytes(gzip.compress((" ".join(map(str, ids)) + "\n").encode(), mtime=0))


if __name__ == "__main__":
    main()

"""The SVG pictures: well-formed, sized, stable, showing what the viewer may see."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ddz
from ddz import svg, uno
from ddz.rules import PRESETS
from ddz.uno import svg as uno_svg

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)  # raises on anything that is not well-formed XML
    assert root.tag == f"{NS}svg"
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert width > 0 and height > 0
    assert root.get("viewBox") == f"0 0 {width} {height}"
    return root


def cards_of(root: ET.Element, seat: int | None = None) -> list[str]:
    """The data-card of every card face up (of one seat's row, or everywhere)."""
    found = []
    for element in root.iter(f"{NS}g"):
        face_up = "card" in element.get("class", "").split() and element.get("data-card")
        if face_up and (seat is None or element.get("data-seat") == str(seat)):
            found.append(element.get("data-card", ""))
    return found


def backs_of(root: ET.Element) -> int:
    return sum(1 for g in root.iter(f"{NS}g") if g.get("class") == "card back")


def test_every_card_symbol_is_drawn_distinctly() -> None:
    symbols = "3456789TJQKA2XDSV"
    root = parse(svg.hand(ddz.Cards.parse(symbols)))
    assert cards_of(root) == list(symbols)
    drawn = {symbol: svg.card(symbol).replace(f'data-card="{symbol}"', "") for symbol in symbols}
    assert len(set(drawn.values())) == len(symbols)  # no two cards look alike
    assert "<polygon" in drawn["X"] and "<polygon" in drawn["D"]  # the jokers' stars
    assert svg.RED in drawn["D"] and svg.RED not in drawn["X"]
    assert "<circle" in drawn["S"] and "<polyline" in drawn["V"]
    assert ">T<" in drawn["T"] and ">10<" not in drawn["T"]  # one notation: T, as in text
    with pytest.raises(ValueError, match="no card symbol"):
        svg.card("Z")


def test_hand_and_move_sizes() -> None:
    for cards in ["", "3", "33344456789TJQKA2XD"]:
        held = ddz.Cards(cards)
        root = parse(svg.hand(held))
        assert cards_of(root) == list(str(held))
        assert int(root.get("width", "0")) == max(svg.fan_width(len(held)), svg.CARD_WIDTH) + 4
        assert root.get("height") == str(svg.CARD_HEIGHT + 4)
    move = ddz.Move.parse("333444+57")
    root = parse(svg.move(move))
    assert sorted(cards_of(root)) == sorted("33344457")
    assert cards_of(root)[-2:] == ["5", "7"]  # kickers last, set apart
    assert "pass" in svg.move(ddz.PASS) and not cards_of(parse(svg.move("pass")))


def test_repr_svg_on_the_objects() -> None:
    game = ddz.Game(seed=7)
    game.step("bid 3")
    for value in [ddz.Cards("33XD"), ddz.Move.parse("TJQKA"), game, game.observation(0)]:
        root = parse(value._repr_svg_())  # type: ignore[attr-defined]
        assert cards_of(root)
    round_ = uno.Game(players=3, seed=14)
    for value in [uno.Card.parse("W+4"), round_, round_.observation(1)]:
        assert cards_of(parse(value._repr_svg_()))  # type: ignore[attr-defined]


def test_actions_are_drawn() -> None:
    """A bid and an UNO action show in a notebook too: a label, or the card played."""
    for text in ["pass", "bid 2", "call", "grab"]:
        root = parse(ddz.Bid.parse(text)._repr_svg_())
        assert "".join(root.itertext()) == text + text and not cards_of(root)  # title, label
    wild = parse(uno.Action.parse("1: play W+4 blue")._repr_svg_())
    assert cards_of(wild) == ["W+4"]
    assert uno_svg.COLOUR_FILLS["blue"] in ET.tostring(wild, encoding="unicode")
    assert "player 1" in "".join(wild.itertext())
    plain = parse(uno_svg.action("0: play R7"))
    assert cards_of(plain) == ["R7"] and int(plain.get("width", 0)) < int(wild.get("width", 0))
    for text in ["2: draw", "0: uno", "3: catch 1", "1: keep"]:
        root = parse(uno.Action.parse(text)._repr_svg_())
        assert not cards_of(root) and text.split(": ")[1] in "".join(root.itertext())
        assert root.get("height") == "24"  # one line, no room kept for a card


@pytest.mark.parametrize("variant", ["classic", "two-player", "uno-landlord"])
def test_the_table_shows_what_the_viewer_may_see(variant: str) -> None:
    rules = PRESETS[variant]
    rng = random.Random(3)
    game = ddz.Game(rules, seed=3)
    pictures = set()
    for _ in range(40):
        if game.is_void:
            game = game.redeal()
        if game.is_over:
            break
        everything = parse(svg.table(game))
        assert svg.table(game) == svg.table(game)  # stable
        for seat in range(rules.players):
            assert sorted(cards_of(everything, seat)) == sorted(str(game.hands[seat]))
        assert everything.get("width") == str(svg.TABLE_WIDTH)
        for seat in range(rules.players):
            mine = parse(svg.table(game, seat=seat))
            for other in range(rules.players):
                expected = str(game.hands[seat]) if other == seat else ""
                assert "".join(cards_of(mine, other)) == expected
            hidden = sum(len(h) for s, h in enumerate(game.hands) if s != seat)
            kitty = len(game.kitty) if game.landlord is None else 0
            assert backs_of(mine) == hidden + kitty
            assert mine.get("height") == everything.get("height")
        pictures.add(svg.table(game))
        game.step(rng.choice(game.legal_actions()))
    assert len(pictures) > 10


def test_text_is_escaped() -> None:
    assert "&lt;b&gt;" in svg.text(0, 0, "<b>")
    assert "&amp;" in svg.document(10, 10, [], label="a & b")
    ET.fromstring(svg.document(10, 10, [svg.pill(0, 0, "<&>", fill="#000")]))


def test_uno_cards_and_table() -> None:
    cards = uno.parse_cards("R0 Y5 GS BR Y+2 W W+4")
    root = parse(uno_svg.hand(cards))
    assert cards_of(root) == [str(card) for card in cards]
    faces = {str(card): uno_svg.card(card).replace(f'data-card="{card}"', "") for card in cards}
    assert len(set(faces.values())) == len(cards)
    assert uno_svg.COLOUR_FILLS["green"] in faces["GS"] and "<circle" in faces["GS"]
    assert "<polyline" in faces["BR"] and ">+2<" in faces["Y+2"] and ">+4<" in faces["W+4"]
    game = uno.Game(players=5, seed=2)
    agents = [uno.make_agent("greedy")] * 5
    for _ in range(8):
        uno.play_turn(game, agents)
    everything = parse(uno_svg.table(game))
    for seat in range(5):
        assert cards_of(everything, seat) == [str(card) for card in game.hand(seat)]
    mine = parse(uno_svg.table(game, seat=3))
    assert cards_of(mine, 3) == [str(card) for card in game.hand(3)]
    assert all(not cards_of(mine, seat) for seat in (0, 1, 2, 4))
    assert backs_of(mine) == sum(game.hand_sizes) - game.hand_sizes[3] + 1  # + the draw pile
    assert parse(uno_svg.table(game.observation(3))).get("height") == mine.get("height")
    with pytest.raises(ValueError, match="seat must be"):
        uno_svg.table(game, seat=5)


def examples() -> dict[str, str]:
    """The pictures docs/seeing.md ships, by path: what the code draws for fixed games."""
    game = ddz.Game(seed=7)
    for action in ["bid 3", "44", "66"]:
        game.step(action)
    round_ = uno.Game(players=4, seed=14)
    agents = [uno.make_agent("greedy")] * 4
    for _ in range(9):
        uno.play_turn(round_, agents)
    return {
        "docs/images/classic-table.svg": svg.table(game, seat=0),
        "docs/images/uno-table.svg": uno_svg.table(round_),
    }


def test_the_docs_pictures_are_what_the_code_draws() -> None:
    for path, drawn in examples().items():
        shipped = ROOT / path
        if not shipped.exists():
            pytest.skip("source tree not available")
        assert shipped.read_text() == drawn, f"redraw with: python tests/test_svg.py ({path})"


if __name__ == "__main__":
    for path, drawn in examples().items():
        (ROOT / path).parent.mkdir(exist_ok=True)
        (ROOT / path).write_text(drawn)
        print(f"wrote {path}")


def card_spans(root: ET.Element) -> list[tuple[float, float]]:
    """Each card's left and right edge in the document, through nested translate/scale."""
    spans = []

    def walk(element: ET.Element, x: float, scale: float) -> None:
        transform = element.get("transform", "")
        moved = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", transform)
        if moved:
            x += float(moved.group(1)) * scale
        scaled = re.search(r"scale\(([\d.]+)\)", transform)
        if scaled:
            scale *= float(scaled.group(1))
        if element.tag == f"{NS}g" and "card" in element.get("class", "").split():
            spans.append((x, x + svg.CARD_WIDTH * scale))
        for child in element:
            walk(child, x, scale)

    walk(root, 0.0, 1.0)
    return spans


def test_long_hands_and_moves_close_up_to_fit() -> None:
    pairs = "33445566778899TTJJQQ"
    game = ddz.Game.from_position(  # 30 cards in hand, 20 on the table: a position allows it
        ddz.CLASSIC,
        [pairs + "KKKKAAAA22", "22", "XD"],
        landlord=0,
        to_act=0,
        table=pairs,
        table_player=2,
    )
    for seat in (None, 0, 1):
        root = parse(svg.table(game, seat=seat))
        spans = card_spans(root)
        assert spans and all(left >= 0 and right <= svg.TABLE_WIDTH - 8 for left, right in spans)
    deal = uno.Deal([uno.DECK[:45], uno.DECK[45:47]])
    round_ = uno.Game(deal=deal, seed=1)
    for seat in (None, 1):
        spans = card_spans(parse(uno_svg.table(round_, seat=seat)))
        assert spans and all(
            left >= 0 and right <= uno_svg.TABLE_WIDTH - 8 for left, right in spans
        )

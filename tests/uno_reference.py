"""A slow, plain UNO round (lists and Counters, no bit fields) to check the core against.

It follows the rules and the decisions in docs/uno.md, written from the rules rather
than from the core, and uses the same seeded generator so that deals and reshuffles match.
"""

from __future__ import annotations

from collections import Counter

from ddz.uno import CARDS, COLOURS, DECK, Action, Card, Rules

MASK = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (MASK // n) * n
        draw = self.next()
        while draw >= limit:
            draw = self.next()
        return draw % n

    def below_fast(self, n: int) -> int:
        """rng.pxd's below_fast (Lemire's draw): the agents' stream, not the deals'."""
        product = self.next() * n
        if product & MASK < n:
            threshold = ((1 << 64) - n) % n
            while product & MASK < threshold:
                product = self.next() * n
        return product >> 64

    def shuffle(self, cards: list[Card]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def is_penalty(card: Card) -> bool:
    return card.face in ("+2", "W+4")


class Reference:
    """One round. ``draw`` keeps the next card to draw *last* (a pop), like a face-down pile."""

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        rng: SplitMix,
        hands: list[list[Card]],
        draw_next_first: list[Card],
        discard: list[Card],
    ) -> None:
        self.rules = rules
        self.players = len(hands)
        self.dealer = dealer
        self.rng = rng
        self.hands = [Counter(hand) for hand in hands]
        self.draw = list(reversed(draw_next_first))
        self.discard = list(discard)
        self.direction = 1
        self.pending = 0
        self.pending_face: str | None = None
        self.drawn: Card | None = None
        self.uno: int | None = None
        self.jumper: int | None = None
        self.winner: int | None = None
        self.blocked = False
        self.colour: str | None = None
        self.current = -1
        self._start()

    @classmethod
    def seeded(cls, rules: Rules, players: int, dealer: int, seed: int) -> Reference:
        """The deal of ``Game(players, seed=seed, dealer=dealer)``: the deck in canonical
        order, shuffled; 7 cards each, one at a time from the dealer's left."""
        rng = SplitMix(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(7 * players):
            hands[(dealer + 1 + i) % players].append(deck.pop())
        return cls(rules, dealer, rng, hands, list(reversed(deck)), [])

    # --- helpers -------------------------------------------------------------------------

    def next(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.winner is not None or self.blocked

    def matches(self, card: Card) -> bool:
        if card.is_wild or card.colour == self.colour:
            return True
        return not self.top.is_wild and card.face == self.top.face

    def can_draw(self) -> bool:
        return bool(self.draw) or (self.rules.reshuffle and len(self.discard) > 1)

    def draw_card(self, seat: int) -> Card | None:
        if not self.draw:
            if not (self.rules.reshuffle and len(self.discard) > 1):
                return None
            self.draw = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.rng.shuffle(self.draw)
        card = self.draw.pop()
        self.hands[seat][card] += 1
        if seat == self.uno:
            self.uno = None
        return card

    def penalty(self, seat: int, count: int) -> None:
        for _ in range(count):
            if self.draw_card(seat) is None:
                return

    def _start(self) -> None:
        while self.draw[-1] == CARDS[53]:
            self.rng.shuffle(self.draw)
        card = self.draw.pop()
        self.discard.append(card)
        self.colour = card.colour
        self.effect(self.dealer, card)

    def effect(self, seat: int, card: Card) -> None:
        if card.face == "S":
            self.current = self.next(self.next(seat))
        elif card.face == "R":
            self.direction = -self.direction
            self.current = seat if self.players == 2 else self.next(seat)
        elif is_penalty(card):
            count = 2 if card.face == "+2" else 4
            if self.rules.stacking:
                self.pending += count
                self.pending_face = card.face
                self.current = self.next(seat)
            else:
                victim = self.next(seat)
                self.penalty(victim, count)
                self.current = self.next(victim)
        else:
            self.current = self.next(seat)

    # --- the rules -----------------------------------------------------------------------

    def plays(self) -> list[str]:
        seat = self.current
        out = []
        for card, count in self.hands[seat].items():
            if not count:
                continue
            if self.drawn is not None and card != self.drawn:
                continue
            if self.pending:
                if card.face != self.pending_face:
                    continue
            elif self.drawn is None and not self.matches(card):
                continue
            if (
                card == CARDS[53]
                and self.rules.no_finish_on_wild_draw_four
                and self.size(seat) == 1
            ):
                continue
            if card.is_wild:
                out += [f"{seat}: play {card} {colour}" for colour in COLOURS]
            else:
                out.append(f"{seat}: play {card}")
        return out

    def jump_ins(self) -> list[str]:
        if not self.rules.jump_in or self.jumper is None or self.top.is_wild:
            return []
        return [
            f"{seat}: play {self.top}"
            for seat in range(self.players)
            if seat not in (self.current, self.jumper) and self.hands[seat][self.top]
        ]

    def legal(self) -> set[str]:
        if self.over:
            return set()
        seat = self.current
        if self.colour is None:
            return {f"{seat}: colour {colour}" for colour in COLOURS}
        plays = self.plays()
        out = set(plays)
        if self.drawn is not None:
            out.add(f"{seat}: keep")
        elif self.pending or not plays or self.can_draw():
            out.add(f"{seat}: draw")
        if self.rules.call_out and self.uno is not None:
            out.add(f"{self.uno}: uno")
            out |= {f"{p}: catch {self.uno}" for p in range(self.players) if p != self.uno}
        out |= set(self.jump_ins())
        return out

    def step(self, action: Action) -> None:
        seat = action.player
        if action.kind == "play":
            card = action.card
            assert card is not None
            if seat != self.current:
                if f"{seat}: play {card}" not in self.jump_ins():
                    self.penalty(seat, 2)  # a wrong jump-in
                    return
                self.current = seat
            self.uno = None
            self.jumper = None
            self.drawn = None
            self.hands[seat][card] -= 1
            self.discard.append(card)
            self.colour = action.colour
            if self.size(seat) == 0:
                self.winner = seat
                self.pending = 0
                self.pending_face = None
                return
            if self.rules.call_out and self.size(seat) == 1:
                self.uno = seat
            if self.rules.jump_in and not card.is_wild:
                self.jumper = seat
            self.effect(seat, card)
        elif action.kind == "draw":
            self.uno = None
            self.jumper = None
            if self.pending:
                self.penalty(self.current, self.pending)
                self.pending = 0
                self.pending_face = None
                self.current = self.next(self.current)
                return
            drawn = self.draw_card(self.current)
            if drawn is None:
                self.blocked = True
            elif self.matches(drawn):
                self.drawn = drawn
            else:
                self.current = self.next(self.current)
        elif action.kind == "keep":
            self.drawn = None
            self.current = self.next(self.current)
        elif action.kind == "uno":
            self.uno = None
        elif action.kind == "catch":
            assert action.target is not None
            self.penalty(action.target, 2)
            self.uno = None
        elif action.kind == "colour":
            self.colour = action.colour

    # --- comparing -----------------------------------------------------------------------

    def summary(self) -> dict[str, object]:
        over = self.over
        return {
            "hands": [sorted(card.kind for card in hand.elements()) for hand in self.hands],
            "draw": [card.kind for card in reversed(self.draw)],
            "discard": [card.kind for card in self.discard],
            "colour": self.colour,
            "direction": self.direction,
            "current": None if over else self.current,
            "pending": self.pending,
            "drawn": self.drawn,
            "uno": self.uno,
            "jumper": self.jumper,
            "winner": self.winner,
            "blocked": self.blocked,
        }

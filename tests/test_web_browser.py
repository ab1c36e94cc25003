"""The page of ``python -m ddz serve`` in a real browser: headless Chromium driven by Selenium.

Skips, saying why, without Selenium (``pip install selenium``) or without Chromium and its
driver (Debian: ``apt-get install chromium chromium-driver``). ``DDZ_SCREENSHOTS=DIR`` saves
a screenshot of each step in DIR, to look at.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ddz
import ddz.agents
from ddz import uno
from ddz.web import sessions
from ddz.web.server import make_server

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip(
        "headless Chromium and its driver are not installed "
        "(Debian: apt-get install chromium chromium-driver)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=DRIVER)
    try:
        driver = webdriver.Chrome(options=options, service=service)
    except Exception as error:  # a driver that does not match the browser, no display...
        pytest.skip(f"Chromium does not start under Selenium: {str(error).splitlines()[0]}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def snap(browser: Any, name: str) -> None:
    folder = os.environ.get("DDZ_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))


def wait_for(browser: Any, check: Any, timeout: float = 10) -> Any:
    return WebDriverWait(browser, timeout).until(lambda driver: check(driver))


def message(browser: Any) -> str:
    return str(browser.find_element(By.ID, "message").text)


def my_cards(browser: Any, seat: int) -> list[Any]:
    return list(browser.find_elements(By.CSS_SELECTOR, f'#table g.card[data-seat="{seat}"]'))


def shown(browser: Any) -> int:
    """How many states the page has shown (it counts them on the body)."""
    return int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-shown") or 0)


def click_and_wait(browser: Any, element: Any) -> None:
    """Click, then wait for the page to show the server's answer."""
    before = shown(browser)
    element.click()
    wait_for(browser, lambda d: shown(d) > before)


def click_card(browser: Any, card: Any) -> None:
    """Click a card where a person would: its left strip, which the next card leaves showing
    (Selenium's own click aims at the middle, under the neighbour)."""
    left = -card.size["width"] / 2 + 6
    ActionChains(browser).move_to_element_with_offset(card, int(left), 0).click().perform()


def state(browser: Any) -> dict[str, Any]:
    """The state the page shows, as the server sent it."""
    return dict(json.loads(browser.execute_script("return JSON.stringify(current)")))


def near(browser: Any, first: str, second: str, within: float = 160) -> bool:
    """Whether two elements are on screen within ``within`` px of each other (vertically)."""
    gap = browser.execute_script(
        """
        const a = document.getElementById(arguments[0]).getBoundingClientRect();
        const b = document.getElementById(arguments[1]).getBoundingClientRect();
        return Math.max(a.top - b.bottom, b.top - a.bottom, 0);
        """,
        first,
        second,
    )
    return bool(gap <= within)


def assert_banner(browser: Any, seat: int) -> None:
    """The finished game says, from ``seat``'s side, won or lost, and the points: what the
    record says (read here with ddz, not by the page)."""
    banner = browser.find_element(By.ID, "outcome")
    assert banner.is_displayed()
    record = state(browser)["record"]
    headline = browser.find_element(By.ID, "outcome-headline").text
    detail = browser.find_element(By.ID, "outcome-detail").text
    if '"ddz-uno-game/1"' in record:
        played = uno.Game.from_json(record)
        won = None if played.winner is None else played.winner == seat
        points = f"Your points: {played.points()[seat]} "
    else:
        game = ddz.Game.from_json(record)
        won = (game.winner == game.landlord) == (seat == game.landlord)
        points = f"Your points: {game.payoffs()[seat]:+d} "
    expected = {True: "You won", False: "You lost", None: "Blocked: nobody won"}[won]
    assert headline == expected and points in detail, (headline, detail)


def start(browser: Any, site: str, game: str, seed: int, seat: int = 0) -> None:
    browser.get(site + "/")
    wait_for(browser, lambda d: "Choose a game" in message(d))
    assert not browser.find_element(By.ID, "main").is_displayed()  # no empty log before a game
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    browser.find_element(By.ID, "seed").send_keys(str(seed))
    seat_box = browser.find_element(By.ID, "seat")
    seat_box.clear()
    seat_box.send_keys(str(seat))
    browser.find_element(By.ID, "new-game").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#table svg"))


def test_play_a_classic_game_with_an_illegal_click(browser: Any, site: str) -> None:
    # Seed 4: seat 1 bids 3 and leads 33, seat 2 answers 44; seat 0 holds
    # 33 44 5 6 7 88 9999 T JJ D and may pass, play 88, 99, JJ or 9999.
    start(browser, site, "classic", seed=4)
    wait_for(browser, lambda d: message(d) == "Your turn.")
    snap(browser, "1-your-turn")
    table = browser.find_element(By.CSS_SELECTOR, "#table svg")
    assert table.get_attribute("width") == "880"
    cards = my_cards(browser, 0)
    assert "".join(c.get_attribute("data-card") for c in cards) == "3344567889999TJJD"
    assert not browser.find_elements(By.CSS_SELECTOR, '#table g.card[data-seat="1"]')  # hidden
    # The illegal click: a 5 and a 6 are no move.
    five = next(c for c in cards if c.get_attribute("data-card") == "5")
    six = next(c for c in cards if c.get_attribute("data-card") == "6")
    click_card(browser, five)
    click_card(browser, six)
    assert browser.find_element(By.ID, "selection").text == "56"
    snap(browser, "2-selected")
    browser.find_element(By.ID, "play-selected").click()
    wait_for(browser, lambda d: "error" in d.find_element(By.ID, "message").get_attribute("class"))
    assert "56" in message(browser) and "no move" in message(browser), message(browser)
    assert near(browser, "message", "play-selected")  # the reason shows by the button
    snap(browser, "3-illegal")
    assert len(my_cards(browser, 0)) == 17  # nothing was played
    # A legal click: the two 8s beat 44.
    browser.find_element(By.ID, "clear-selected").click()
    for card in [c for c in my_cards(browser, 0) if c.get_attribute("data-card") == "8"]:
        click_card(browser, card)
    browser.find_element(By.ID, "play-selected").click()
    wait_for(browser, lambda d: len(my_cards(d, 0)) == 15)
    log = browser.find_element(By.ID, "log").text
    assert "seat 0 (you): 88" in log
    snap(browser, "4-played")
    # Play on by passing (or the first listed move when leading) until the game ends.
    for _ in range(60):
        if "Game over" in message(browser):
            break
        passes = [
            b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button") if b.text == "pass"
        ]
        if passes:
            click_and_wait(browser, passes[0])
        else:
            browser.find_element(By.CSS_SELECTOR, "#more-actions summary").click()
            click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#all-actions button"))
    assert "Game over" in message(browser)
    assert_banner(browser, 0)
    snap(browser, "5-over")
    # Over, every hand is shown face up.
    assert browser.find_elements(
        By.CSS_SELECTOR, '#table g.card[data-seat="1"]'
    ) or "seat 1" in message(browser)
    # The finished game offers its record: saved as a file, or replayed at once.
    save = browser.find_element(By.ID, "save-record")
    assert save.get_attribute("href").startswith("blob:")
    assert save.get_attribute("download") == "ddz-classic-seed-4.json"
    plies = len(browser.find_elements(By.CSS_SELECTOR, "#log li"))
    browser.find_element(By.ID, "replay-this").click()
    # a replay opens at the deal, its record's text folded away (not above the board)
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == f"ply 0 of {plies}")
    assert not browser.find_element(By.ID, "finished").is_displayed()
    assert not browser.find_element(By.ID, "record").is_displayed()
    assert not browser.find_element(By.ID, "outcome").is_displayed()
    browser.find_element(By.ID, "first").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == f"ply 0 of {plies}")
    faces = browser.find_elements(By.CSS_SELECTOR, '#table g.card[data-seat="0"]')
    assert "".join(face.get_attribute("data-card") for face in faces) == "3344567889999TJJD"
    snap(browser, "5b-replay-this")


def test_uno_cards_and_colours(browser: Any, site: str) -> None:
    start(browser, site, "uno", seed=14)
    wait_for(browser, lambda d: message(d) in ("Your turn.",) or "may act" in message(d))
    snap(browser, "6-uno")
    cards = my_cards(browser, 0)
    assert len(cards) == 7
    # Click a card that does not match: the reason comes back, nothing changes.
    state = json.loads(browser.execute_script("return JSON.stringify(current)"))
    playable = {a.split()[2] for a in state["legal"] if " play " in a}
    top = browser.find_element(By.CSS_SELECTOR, "#text").get_attribute("textContent")
    unplayable = [
        c
        for c in cards
        if c.get_attribute("data-card") not in playable
        and not c.get_attribute("data-card").startswith("W")
    ]
    assert unplayable  # seed 14: R8 and more match neither B9's colour nor its face
    click_card(browser, unplayable[0])
    wait_for(browser, lambda d: "error" in d.find_element(By.ID, "message").get_attribute("class"))
    assert "matches neither" in message(browser), message(browser)
    snap(browser, "7-uno-illegal")
    assert len(my_cards(browser, 0)) == 7
    assert browser.find_element(By.CSS_SELECTOR, "#text").get_attribute("textContent") == top
    # Play on with the first action listed until the round ends.
    for _ in range(300):
        if "Game over" in message(browser):
            break
        click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "#actions button")[0])
    assert "Game over" in message(browser)
    assert_banner(browser, 0)
    snap(browser, "8-uno-over")
    log = browser.find_element(By.ID, "log").text
    assert "(you): play" in log and re.search(r"\(greedy\): draw \d+ cards?", log), log


def test_uno_wild_asks_for_its_colour(browser: Any, site: str) -> None:
    # Seed 1: player 0 holds a Wild Draw Four and may play it at once.
    start(browser, site, "uno", seed=1)
    wait_for(browser, lambda d: message(d) == "Your turn.")
    wild = next(c for c in my_cards(browser, 0) if c.get_attribute("data-card") == "W+4")
    assert not browser.find_element(By.ID, "colours").is_displayed()
    click_card(browser, wild)
    wait_for(browser, lambda d: d.find_element(By.ID, "colours").is_displayed())
    assert browser.find_element(By.ID, "wild-card").text == "W+4"
    snap(browser, "11-uno-colour")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, '#colours [data-colour="green"]'))
    assert "player 0 (you): play W+4 green" in browser.find_element(By.ID, "log").text
    assert not browser.find_element(By.ID, "colours").is_displayed()
    # The Wild Draw Four left the hand (the opponents then play until it is seat 0's turn).
    wait_for(browser, lambda d: message(d) == "Your turn." or "Game over" in message(d))
    log = browser.find_element(By.ID, "log").text
    drawn = sum(int(n) for n in re.findall(r"player 0 \(you\): draw (\d+)", log))
    assert len(my_cards(browser, 0)) == 6 + drawn, log


def test_replay_a_record(browser: Any, site: str) -> None:
    game = ddz.Game(seed=11)
    agent = ddz.agents.GreedyAgent()
    while not game.is_over:
        game.step(ddz.agents.choose(agent, game))
    browser.get(site + "/")
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "record").send_keys("this is no record")
    browser.find_element(By.ID, "load-replay").click()
    wait_for(browser, lambda d: "does not replay" in message(d))
    record = browser.find_element(By.ID, "record")
    record.clear()
    browser.execute_script("arguments[0].value = arguments[1]", record, game.record())
    browser.find_element(By.ID, "load-replay").click()
    plies = len(game.history)
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == f"ply 0 of {plies}")
    assert "The deal" in message(browser)
    browser.find_element(By.ID, "first").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == f"ply 0 of {plies}")
    for ply in range(1, 4):
        browser.find_element(By.ID, "forward").click()
        wait_for(
            browser,
            lambda d, ply=ply: d.find_element(By.ID, "ply-label").text.startswith(f"ply {ply} "),
        )
    snap(browser, "9-replay")
    assert str(game.history[2].action) in message(browser)
    # every hand is face up in a replay
    at_three = ddz.Game(seed=11)
    for record in game.history[:3]:
        at_three.step(record.action)
    held = sum(len(hand) for hand in at_three.hands)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#table g.card[data-seat]")) == held
    with urllib.request.urlopen(site + "/static/app.js") as response:
        assert response.status == 200


def load_record(browser: Any, site: str, record: str) -> None:
    browser.get(site + "/")
    browser.find_element(By.ID, "tab-replay").click()
    box = browser.find_element(By.ID, "record")
    browser.execute_script("arguments[0].value = arguments[1]", box, record)
    browser.find_element(By.ID, "load-replay").click()


REVIEWED = json.dumps(
    {
        "format": "ddz-game/1",
        "rules": {},
        "position": "34JJKX/77TKA/568TQ landlord=0 turn=0",
        "actions": ["K", "A", "pass", "pass", "77", "pass", "pass", "K", "pass", "pass", "T"],
    }
)
"""docs/solver.md's reviewed game: blunders at plies 1, 5 and 7 (counted from 1)."""


def test_a_busy_reviewer_is_asked_again(browser: Any, site: str) -> None:
    # another review holds the server's one reviewer: the page is told 503, says so, and asks
    # again by itself once the reviewer is free
    with sessions._REVIEWING:
        load_record(browser, site, REVIEWED)
        strip = browser.find_element(By.ID, "verdicts")
        wait_for(browser, lambda d: "another review" in (strip.get_attribute("title") or ""))
        assert strip.get_attribute("data-ready") != "true"
    wait_for(browser, lambda d: strip.get_attribute("data-ready") == "true", timeout=30)
    assert "11 known, 3 blunders" in (strip.get_attribute("title") or "")


def test_a_replay_shows_the_verdict_strip(browser: Any, site: str) -> None:
    load_record(browser, site, REVIEWED)
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == "ply 0 of 11")
    strip = browser.find_element(By.ID, "verdicts")
    wait_for(browser, lambda d: strip.get_attribute("data-ready") == "true", timeout=30)
    snap(browser, "10-verdicts")
    assert strip.is_displayed()
    assert "11 known, 3 blunders" in (strip.get_attribute("title") or "")
    cells = browser.find_elements(By.CSS_SELECTOR, "#verdicts .verdict")
    expected = ddz.review(REVIEWED)
    assert len(cells) == len(expected.rows) == 11
    for cell, row in zip(cells, expected.rows, strict=True):
        verdict = {1: "win", -1: "loss", None: "unknown"}[row.before]
        classes = (cell.get_attribute("class") or "").split()
        assert verdict in classes and ("blunder" in classes) == row.blunder
    blunders = browser.find_elements(By.CSS_SELECTOR, "#verdicts .verdict.blunder")
    assert [cell.get_attribute("data-ply") for cell in blunders] == ["1", "5", "7"]
    assert "K: win before, loss after; best 3 (blunder)" in (
        blunders[0].get_attribute("title") or ""
    )
    blunders[1].click()  # a cell steps the replay to its ply
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == "ply 5 of 11")
    now = browser.find_element(By.CSS_SELECTOR, "#verdicts .verdict.now")
    assert now.get_attribute("data-ply") == "5"
    # a seat's view has no strip: the other hands were never sent
    game = ddz.Game.from_json(REVIEWED)
    load_record(browser, site, game.to_json(seat=1))
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == "ply 0 of 11")
    assert not browser.find_element(By.ID, "verdicts").is_displayed()


def test_replay_a_seats_view(browser: Any, site: str) -> None:
    """A per-seat record (``to_json(seat=1)``) steps through what seat 1 saw: its own cards
    face up, every other hand face down, at every ply; an UNO view is refused with why."""
    game = ddz.Game(seed=11)
    agent = ddz.agents.GreedyAgent()
    while not game.is_over:
        game.step(ddz.agents.choose(agent, game))
    plies = len(game.history)
    load_record(browser, site, game.to_json(seat=1))
    deal = f"ply 0 of {plies}"
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == deal)
    assert message(browser).startswith("Seat 1's view"), message(browser)
    # The deal, the bidding and the first plays one step at a time, then the end: each browser
    # step is a round trip to the server (test_web.py checks more plies without a browser).
    browser.find_element(By.ID, "first").click()
    for ply in [*range(7), plies]:
        button = "last" if ply == plies else "forward"
        if ply:
            browser.find_element(By.ID, button).click()
        wait_for(
            browser,
            lambda d, ply=ply: d.find_element(By.ID, "ply-label").text.startswith(f"ply {ply} "),
        )
        at = game.copy()
        for _ in range(plies - ply):
            at.undo()
        faces = browser.find_elements(By.CSS_SELECTOR, "#table g.card[data-seat]")
        assert {face.get_attribute("data-seat") for face in faces} <= {"1"}
        assert "".join(face.get_attribute("data-card") for face in faces) == str(at.hands[1])
        if ply == 5:
            snap(browser, "10-view-replay")
    round_ = uno.Game(players=3, seed=2)
    uno.play_round(round_, [uno.make_agent("greedy")] * 3)
    load_record(browser, site, round_.to_json(seat=0))
    wait_for(browser, lambda d: "full record" in message(d))
    assert "player 0's view" in message(browser)


def test_the_controls_stay_in_view(browser: Any, site: str) -> None:
    """Ten UNO players make a table taller than the window: the message and the action
    buttons stay on screen (sticky); a narrow window scrolls only down, never sideways."""
    browser.get(site + "/")
    wait_for(browser, lambda d: "Choose a game" in message(d))
    Select(browser.find_element(By.ID, "game")).select_by_value("uno")
    players = browser.find_element(By.ID, "players")
    players.clear()
    players.send_keys("10")
    browser.find_element(By.ID, "seed").send_keys("7")
    browser.find_element(By.ID, "new-game").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#actions button"))
    in_view = """
        const box = arguments[0].getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
    """
    table = browser.find_element(By.ID, "table")
    assert table.size["height"] > browser.execute_script("return window.innerHeight")
    browser.execute_script("window.scrollTo(0, 400)")
    assert browser.execute_script(in_view, browser.find_element(By.ID, "message"))
    assert browser.execute_script(in_view, browser.find_element(By.CSS_SELECTOR, "#actions button"))
    browser.set_window_size(900, 900)
    try:
        start(browser, site, "classic", seed=4)
        sideways = (
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert browser.execute_script(sideways) <= 0
    finally:
        browser.set_window_size(1280, 1000)


# --- the keyboard ----------------------------------------------------------------------------


def keys(browser: Any, *pressed: str) -> None:
    """Keys pressed on whatever has the focus, as a person types them (no mouse)."""
    ActionChains(browser).send_keys(*pressed).perform()


def focused(browser: Any) -> Any:
    return browser.switch_to.active_element


def tab_to(browser: Any, wanted: Any, most: int = 40) -> None:
    """Press Tab until the focused element is ``wanted`` (a test of it)."""
    for _ in range(most):
        if wanted(focused(browser)):
            return
        keys(browser, Keys.TAB)
    raise AssertionError(f"Tab never reached it; at {focused(browser).get_attribute('outerHTML')}")


def is_card(element: Any) -> bool:
    return element.tag_name == "g" and "card" in (element.get_attribute("class") or "")


def ply_label(browser: Any) -> str:
    return str(browser.find_element(By.ID, "ply-label").text)


def test_a_whole_game_by_keyboard_only(browser: Any, site: str) -> None:
    """Tab, the arrows, Space, P and N play a whole classic game (bidding with Tab and
    Enter); then Enter replays it from the deal and the arrow keys step through it, eight
    fast presses eight plies."""
    browser.get(site + "/")
    wait_for(browser, lambda d: "Choose a game" in message(d))
    assert "P" in browser.find_element(By.ID, "keys").get_attribute("textContent")
    tab_to(browser, lambda e: e.get_attribute("id") == "seed")
    keys(browser, "5")  # seed 5: seat 0 bids first
    keys(browser, Keys.TAB)
    assert focused(browser).get_attribute("id") == "new-game"
    keys(browser, Keys.ENTER)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#table svg"))
    assert state(browser)["phase"] == "bidding"
    arrows_checked = lead_checked = False
    for _ in range(80):
        now = state(browser)
        if now["over"]:
            break
        before = shown(browser)
        if now["phase"] == "bidding":  # Tab to the highest bid, Enter
            last = now["legal"][-1]
            tab_to(browser, lambda e, last=last: e.tag_name == "button" and e.text == last)
            keys(browser, Keys.ENTER)
        elif now["leading"]:
            tab_to(browser, is_card)
            if not arrows_checked:  # the arrows move along the hand, Space selects, C clears
                hand = [c.get_attribute("data-card") for c in my_cards(browser, 0)]
                keys(browser, Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.SPACE)
                assert focused(browser).get_attribute("data-card") == hand[2]
                assert browser.find_element(By.ID, "selection").text == hand[2]
                keys(browser, Keys.ARROW_LEFT, Keys.ENTER)
                assert browser.find_element(By.ID, "selection").text == "".join(hand[1:3])
                keys(browser, "c")
                assert browser.find_element(By.ID, "selection").text == ""
                arrows_checked = True
            if not lead_checked:  # nothing selected, leading: the hint offers no pass
                keys(browser, "p")
                wait_for(browser, lambda d: "You lead" in message(d))
                assert "or pass" not in message(browser)
                assert near(browser, "message", "play-selected")
                snap(browser, "20-keyboard-lead")
                lead_checked = True
            keys(browser, Keys.HOME, Keys.SPACE, "p")  # lead the lowest single
        else:
            keys(browser, "n")  # pass
        wait_for(browser, lambda d, before=before: shown(d) > before)
    assert state(browser)["over"] and arrows_checked and lead_checked
    assert_banner(browser, 0)
    snap(browser, "21-keyboard-over")
    plies = int(state(browser)["log_start"]) + len(state(browser)["log"]) - 1
    record = state(browser)["record"]
    assert focused(browser).get_attribute("id") == "replay-this"
    keys(browser, Keys.ENTER)
    wait_for(browser, lambda d: ply_label(d) == f"ply 0 of {plies}")
    keys(browser, *[Keys.ARROW_RIGHT] * 8)  # faster than the server answers: none dropped
    wait_for(browser, lambda d: ply_label(d) == f"ply 8 of {plies}")
    keys(browser, *[Keys.ARROW_LEFT] * 3)
    wait_for(browser, lambda d: ply_label(d) == f"ply 5 of {plies}")
    at = ddz.Game.from_json(record)
    for _ in range(plies - 5):
        at.undo()
    for seat in range(3):
        faces = my_cards(browser, seat)
        assert "".join(face.get_attribute("data-card") for face in faces) == str(at.hands[seat])
    snap(browser, "22-keyboard-replay")


def test_a_whole_uno_round_by_keyboard_only(browser: Any, site: str) -> None:
    """UNO from the keys: the arrows to a card, Enter plays it (a wild moves to its colour
    buttons), D draws, N lets a moment pass."""
    start(browser, site, "uno", seed=1)  # player 0 holds a Wild Draw Four, to play at once
    wait_for(browser, lambda d: message(d) == "Your turn.")
    assert focused(browser).get_attribute("id") == "new-game"
    keys(browser, Keys.TAB)
    assert is_card(focused(browser))  # one Tab from New game: the hand
    wild_played = False
    for _ in range(300):
        now = state(browser)
        if now["over"]:
            break
        before = shown(browser)
        hand = [c.get_attribute("data-card") for c in my_cards(browser, 0)]
        plays = [a.split()[1] for a in now["legal"] if a.startswith("play ")]
        tame = [i for i, card in enumerate(hand) if card in plays and not card.startswith("W")]
        wild = [i for i, card in enumerate(hand) if card in plays and card.startswith("W")]
        if wild and (not wild_played or not tame):
            keys(browser, Keys.HOME, *[Keys.ARROW_RIGHT] * wild[0], Keys.ENTER)
            wait_for(browser, lambda d: d.find_element(By.ID, "colours").is_displayed())
            assert focused(browser).get_attribute("data-colour") == "red"
            keys(browser, Keys.TAB, Keys.TAB)
            assert focused(browser).get_attribute("data-colour") == "green"
            keys(browser, Keys.ENTER)
            wild_played = True
        elif tame:
            keys(browser, Keys.HOME, *[Keys.ARROW_RIGHT] * tame[0], Keys.ENTER)
        elif "draw" in now["legal"]:
            keys(browser, "d")
        elif now["may_pass"] or "pass" in now["legal"]:
            keys(browser, "n")
        else:  # an UNO call: Tab to its button
            first = now["legal"][0]
            tab_to(browser, lambda e, first=first: e.tag_name == "button" and e.text == first)
            keys(browser, Keys.ENTER)
        wait_for(browser, lambda d, before=before: shown(d) > before)
        if not now["over"] and not state(browser)["over"] and state(browser)["legal"]:
            assert is_card(focused(browser)) or focused(browser).tag_name == "button"
    assert state(browser)["over"] and wild_played
    played = [str(a) for a in uno.Game.from_json(state(browser)["record"]).history]
    assert "0: play W+4 green" in played, played[:5]
    assert_banner(browser, 0)
    snap(browser, "23-uno-keyboard-over")


# --- a phone ---------------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}

OVERFLOW = """
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width) out.push("the page scrolls sideways");
    for (const element of document.querySelectorAll("body *")) {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || element.closest("details:not([open])")) continue;
        if (box.left < -0.5 || box.right > width + 0.5) out.push(element.outerHTML.slice(0, 80));
    }
    return out;
"""

SMALL_TARGETS = """
    const out = [];
    const targets = "button, a, select, input, textarea, summary, .hcard, [tabindex], li.step";
    for (const element of document.querySelectorAll(targets)) {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || element.closest("details:not([open])")) continue;
        if (getComputedStyle(element).pointerEvents === "none") continue;
        if (box.width < 40 || box.height < 40) {
            out.push(`${element.outerHTML.slice(0, 60)} ${box.width}x${box.height}`);
        }
    }
    return out;
"""


TAPPED = """
    const card = arguments[0];
    card.scrollIntoView({ block: "center" });
    const box = card.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && hit.closest(".hcard") === card;
"""


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """The browser as a 390 x 844 phone (a mobile viewport: the page's viewport tag applies)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def check_phone(browser: Any) -> None:
    """Nothing wider than the screen, every tap target 40 px or more each way."""
    assert browser.execute_script("return window.innerWidth") == 390
    assert browser.execute_script(OVERFLOW) == []
    assert browser.execute_script(SMALL_TARGETS) == []


def big_cards(browser: Any) -> list[Any]:
    return list(browser.find_elements(By.CSS_SELECTOR, "#hand .hcard"))


def test_a_whole_classic_game_on_a_phone(phone: Any, site: str) -> None:
    browser = phone
    start(browser, site, "classic", seed=4)
    wait_for(browser, lambda d: message(d) == "Your turn.")
    check_phone(browser)
    hand = big_cards(browser)
    assert "".join(c.text.split()[0] for c in hand) == "3344567889999TJJD"  # T, as moves say
    assert all(c.size["width"] >= 40 and c.size["height"] >= 40 for c in hand)
    for card in hand:  # each one's middle is that card, not a neighbour over it
        assert browser.execute_script(TAPPED, card), card.get_attribute("data-card")
    browser.find_element(By.ID, "play-selected").click()  # nothing selected: told why, by it
    wait_for(browser, lambda d: "Select the cards to play first, or pass." in message(d))
    assert near(browser, "message", "play-selected")
    snap(browser, "30-phone-start")
    checked = False
    for _ in range(80):
        now = state(browser)
        if now["over"]:
            break
        buttons = {b.text: b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")}
        moves = [m for m in now["legal"] if m != "pass" and "+" not in m]  # one reading each
        if now["phase"] == "bidding":
            click_and_wait(browser, buttons[now["legal"][-1]])
        elif moves:  # tap the first legal move's cards, then Play
            wanted = list(moves[0])
            for card in big_cards(browser):
                if card.get_attribute("data-card") in wanted:
                    wanted.remove(card.get_attribute("data-card"))
                    card.click()
            assert browser.find_element(By.ID, "selection").text == moves[0]
            if not checked:
                check_phone(browser)
                snap(browser, "31-phone-selected")
                checked = True
            click_and_wait(browser, browser.find_element(By.ID, "play-selected"))
        else:
            click_and_wait(browser, buttons["pass"])
    assert state(browser)["over"] and checked
    assert_banner(browser, 0)
    check_phone(browser)
    snap(browser, "32-phone-over")
    plies = int(state(browser)["log_start"]) + len(state(browser)["log"]) - 1
    browser.find_element(By.ID, "replay-this").click()
    wait_for(browser, lambda d: ply_label(d) == f"ply 0 of {plies}")
    forward = browser.find_element(By.ID, "forward")
    for _ in range(4):  # four quick taps, four plies
        forward.click()
    wait_for(browser, lambda d: ply_label(d) == f"ply 4 of {plies}")
    check_phone(browser)
    snap(browser, "33-phone-replay")


def test_a_whole_uno_round_on_a_phone(phone: Any, site: str) -> None:
    browser = phone
    browser.get(site + "/")
    browser.find_element(By.ID, "tab-replay").click()  # its form fits too
    assert browser.find_element(By.ID, "record").is_displayed()
    check_phone(browser)
    start(browser, site, "uno", seed=1)
    wait_for(browser, lambda d: message(d) == "Your turn.")
    check_phone(browser)
    snap(browser, "34-phone-uno")
    for _ in range(300):
        now = state(browser)
        if now["over"]:
            break
        plays = [a.split()[1] for a in now["legal"] if a.startswith("play ")]
        cards = big_cards(browser)
        assert [c.get_attribute("data-card") for c in cards] == [
            c.get_attribute("data-card") for c in my_cards(browser, 0)
        ]
        playable = [c for c in cards if c.get_attribute("data-card") in plays]
        if playable:
            card = playable[0]
            if card.get_attribute("data-card").startswith("W"):
                card.click()
                wait_for(browser, lambda d: d.find_element(By.ID, "colours").is_displayed())
                check_phone(browser)
                click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, ".colour.blue"))
            else:
                click_and_wait(browser, card)
        else:
            click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "#actions button")[0])
    assert state(browser)["over"]
    assert_banner(browser, 0)
    check_phone(browser)
    snap(browser, "35-phone-uno-over")


# --- the log ---------------------------------------------------------------------------------


def test_long_logs_show_their_numbers_whole(browser: Any, site: str) -> None:
    """Ply numbers from 100 up are shown whole (a list marker's digits were cut: "00.")."""
    for seed in range(40):
        round_ = uno.Game(players=4, seed=seed)
        uno.play_round(round_, [uno.make_agent("greedy")] * 4)
        if round_.ply >= 120:
            break
    plies = round_.ply
    assert plies >= 120
    load_record(browser, site, round_.to_json())
    wait_for(browser, lambda d: ply_label(d) == f"ply 0 of {plies}")
    numbers = browser.execute_script(
        """
        const log = document.getElementById("log").getBoundingClientRect();
        return Array.from(document.querySelectorAll("#log li .ply")).map((span) => {
            const box = span.getBoundingClientRect();
            return [span.textContent, box.left >= log.left && box.right <= log.right];
        });
        """
    )
    assert [n for n, _ in numbers] == [f"{ply}." for ply in range(1, plies + 1)]
    assert all(inside for _, inside in numbers)
    item = browser.find_elements(By.CSS_SELECTOR, "#log li")[99]
    browser.execute_script("arguments[0].scrollIntoView()", item)
    assert item.text.startswith("100. ")
    snap(browser, "40-long-log")

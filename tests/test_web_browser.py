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
from ddz import uno
from ddz.web.server import make_server

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
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
    last = f"ply {plies} of {plies}"
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == last)
    assert not browser.find_element(By.ID, "finished").is_displayed()
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
    wait_for(
        browser, lambda d: d.find_element(By.ID, "ply-label").text == f"ply {plies} of {plies}"
    )
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


def test_replay_a_seats_view(browser: Any, site: str) -> None:
    """A per-seat record (``to_json(seat=1)``) steps through what seat 1 saw: its own cards
    face up, every other hand face down, at every ply; an UNO view is refused with why."""
    game = ddz.Game(seed=11)
    agent = ddz.agents.GreedyAgent()
    while not game.is_over:
        game.step(ddz.agents.choose(agent, game))
    plies = len(game.history)
    load_record(browser, site, game.to_json(seat=1))
    last = f"ply {plies} of {plies}"
    wait_for(browser, lambda d: d.find_element(By.ID, "ply-label").text == last)
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

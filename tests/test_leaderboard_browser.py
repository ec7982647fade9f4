"""The leaderboard's pages in a real browser: Debian's headless Chromium driven through
Selenium with Debian's chromedriver (no browser download). A level's board lists its wins in
order; the game viewer steps through the moves with its buttons, the arrow keys and the
slider. BGBOARD_SCREENSHOTS=DIR keeps a screenshot of each page there."""

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from leaderboard_kit import Api, ranked


def _browser_or_skip():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if not chromium or not driver:
        pytest.skip("Debian's chromium and chromium-driver are not installed (tools/dev test "
                    "installs them)")
    return chromium, driver


@pytest.fixture
def site(tmp_path):
    from bgboard.leaderboard.pgtemp import free_port
    import uvicorn
    api = Api("sqlite:///%s" % (tmp_path / "lb.sqlite"))
    key = api.register("B1", "<i>club</i> board")
    tickets = api.tickets("B1", key, 10)
    for name, cc in (("ANN", "NZ"), ("BOB", "DE"), ("CY", "FR")):
        assert api.submit(ranked(tickets, name=name, country=cc)[0])[0] == 201
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(api.app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive()
        time.sleep(0.05)
    yield api, "http://127.0.0.1:%d" % port
    server.should_exit = True
    thread.join(30)
    api.app.state.engine.dispose()


@pytest.fixture
def browser():
    chromium, driver = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=412,900", "--hide-scrollbars"):
        opts.add_argument(a)
    b = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    b.implicitly_wait(0)
    yield b
    b.quit()


def _shot(browser, name, tmp_path):
    keep = os.environ.get("BGBOARD_SCREENSHOTS")
    path = Path(keep or tmp_path) / ("leaderboard-%s.png" % name)
    path.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 1000


def _until(browser, check, what, timeout=120):
    # (a hang guard: the pages, the script and the server's pictures come in a second or two, a
    # loaded machine's browser and server taking many times that)
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, timeout).until(lambda b: check(b), message=what)


def test_board_order_and_stepping_through_a_game(site, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    api, url = site
    want = [(e["name"], e["points"], e["opponent_pips"]) for e in api.level(1)]
    browser.get(url + "/level/1")
    rows = browser.find_elements(By.CSS_SELECTOR, "tr.entry")
    shown = [(r.find_element(By.CSS_SELECTOR, ".name").text, int(r.get_attribute("data-points")),
              int(r.get_attribute("data-pips"))) for r in rows]
    assert shown == want
    assert shown == sorted(shown, key=lambda s: (-s[1], -s[2]))
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == ["1", "2", "3"]
    _shot(browser, "level", tmp_path)
    browser.get(url + "/")
    assert len(browser.find_elements(By.CSS_SELECTOR, "section")) == 6
    _shot(browser, "index", tmp_path)

    browser.get(url + "/level/1")
    browser.find_element(By.CSS_SELECTOR, "tr.entry a.game").click()
    _until(browser, lambda b: b.find_elements(By.ID, "board"), "the game page")
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    count = len(moves)
    where = browser.find_element(By.ID, "where")
    board = browser.find_element(By.ID, "board")

    def at(n):
        _until(browser, lambda b: where.text == "%d / %d" % (n, count), "move %d shown" % n)
        current = browser.find_element(By.CSS_SELECTOR, "#moves li.current")
        assert current.get_attribute("id") == "move-%d" % n
        assert board.get_attribute("data-position") == current.get_attribute("data-position")
        assert board.get_attribute("src").endswith("/move/%d.svg" % n)
        _until(browser, lambda b: b.execute_script(
            "var i = arguments[0]; return i.complete && i.naturalWidth > 0;", board),
            "the board picture of move %d loaded" % n)

    at(1)
    assert browser.find_element(By.CSS_SELECTOR, "h1 .name").text == shown[0][0]
    browser.find_element(By.ID, "next").click()
    at(2)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    at(3)
    _shot(browser, "game", tmp_path)
    browser.execute_script("var s = arguments[0]; s.value = s.max; "
                           "s.dispatchEvent(new Event('input'));",
                           browser.find_element(By.ID, "slider"))
    at(count)
    assert " wins " in browser.find_element(By.CSS_SELECTOR, "#moves li.current").text
    browser.find_element(By.ID, "prev").click()
    at(count - 1)
    moves[4].click()
    at(5)
    browser.get(browser.current_url)             # the address keeps the move shown
    where = browser.find_element(By.ID, "where")
    board = browser.find_element(By.ID, "board")
    at(5)
    browser.get(url + "/player/ANN-NZ")
    assert browser.find_elements(By.CSS_SELECTOR, "tr.entry")
    _shot(browser, "player", tmp_path)

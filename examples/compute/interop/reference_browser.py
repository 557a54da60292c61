"""The compute API's reference pages in a real headless Chromium.

Debian's `chromium`, driven through its `chromium-driver` by Selenium:

- the 2.55 page renders with its landmarks and headings, loads nothing
  from elsewhere, and shows the flavor `description` field and a flavor's
  real example (api_samples/flavors/v2.55/flavor-get-resp.json) when a
  reader opens it;
- the switcher moves to 2.54 with the mouse: the page has no flavor
  `description`, and shows the notice of a deprecated version;
- the switcher moves from the keyboard: Tab reaches it, an arrow key or
  its button shows another version.

Usage: reference_browser.py BASE_URL SCREENSHOT_PATH
"""

import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

import headless_chromium

BASE, SCREENSHOT = sys.argv[1], sys.argv[2]


def fields(driver):
    cells = driver.find_elements(By.CSS_SELECTOR, "table.fields th[scope=row] code")
    return {cell.text for cell in cells}


def real_example(driver, operation):
    """The text of an operation's own answer example, opened as a reader
    opens it: the `Example` (not `Example (built from the schema)`)."""
    for section in driver.find_elements(By.CSS_SELECTOR, "section.operation"):
        if section.find_element(By.TAG_NAME, "h3").text == operation:
            for details in section.find_elements(By.TAG_NAME, "details"):
                summary = details.find_element(By.TAG_NAME, "summary")
                if summary.text == "Example":
                    summary.click()
                    return details.find_element(By.TAG_NAME, "pre").text
    raise AssertionError("no real example of " + operation)


def wait_for(driver, version, seconds=10):
    WebDriverWait(driver, seconds).until(lambda d: d.current_url.endswith("/docs/" + version))
    assert "reference at " + version in driver.title, driver.title


def main():
    driver = headless_chromium.driver()
    try:
        driver.get(BASE + "/docs/2.55")
        assert "reference at 2.55" in driver.title, driver.title
        for landmark in ("header", "main", "footer", "nav[aria-label=Versions]", "nav[aria-label=Operations]"):
            assert driver.find_elements(By.CSS_SELECTOR, landmark), landmark
        assert driver.find_element(By.TAG_NAME, "h1").is_displayed()
        assert len(driver.find_elements(By.CSS_SELECTOR, "section.operation h3")) >= 10
        loaded = driver.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
        assert all(url.startswith(BASE) for url in loaded), loaded
        assert "flavor.description" in fields(driver), sorted(fields(driver))
        shown = real_example(driver, "GET /v2.1/flavors/{id}")
        assert '"name": "m1.tiny"' in shown and '"description": null' in shown, shown
        driver.save_screenshot(SCREENSHOT)

        # With the mouse: choose 2.54 in the switcher.
        Select(driver.find_element(By.ID, "version")).select_by_value("2.54")
        wait_for(driver, "2.54")
        assert "flavor.description" not in fields(driver)
        notice = driver.find_element(By.ID, "deprecation")
        assert notice.is_displayed() and "Version 2.54 is deprecated" in notice.text, notice.text

        # From the keyboard: Tab past the skip link to the switcher, then up
        # one version (the list is newest first); its button if the arrow
        # only chose.
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        assert driver.switch_to.active_element.get_attribute("class") == "skip"
        driver.switch_to.active_element.send_keys(Keys.TAB)
        switcher = driver.switch_to.active_element
        assert switcher.get_attribute("id") == "version", switcher.get_attribute("outerHTML")[:80]
        switcher.send_keys(Keys.ARROW_UP)
        try:
            wait_for(driver, "2.55", seconds=3)
        except TimeoutException:
            switcher.send_keys(Keys.TAB)
            driver.switch_to.active_element.send_keys(Keys.ENTER)
            wait_for(driver, "2.55")
        assert "flavor.description" in fields(driver)
    finally:
        driver.quit()
    print("reference pages: rendered, switched by mouse and keyboard, 2.55 and 2.54 as declared")


if __name__ == "__main__":
    main()

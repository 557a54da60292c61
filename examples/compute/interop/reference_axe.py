"""The compute API's reference pages checked by axe-core in headless Chromium.

axe-core (the copy `axe-selenium-python` ships) runs on `/docs/`, `/docs/2.55`
and `/docs/2.55/changes` in Debian's `chromium`, driven by Selenium; a
violation whose impact is serious or critical fails, naming the rule and
the elements. Minor and moderate ones are printed.

Usage: reference_axe.py BASE_URL
"""

import sys

from axe_selenium_python import Axe

import headless_chromium

BASE = sys.argv[1]
PAGES = ("/docs/", "/docs/2.55", "/docs/2.55/changes")
FAILING = ("serious", "critical")


def main():
    driver = headless_chromium.driver()
    failures = []
    try:
        for page in PAGES:
            driver.get(BASE + page)
            axe = Axe(driver)
            axe.inject()
            results = axe.run()
            print(f"== {page}: {len(results['passes'])} rules pass, {len(results['violations'])} violated")
            for violation in results["violations"]:
                targets = [", ".join(node["target"]) for node in violation["nodes"]][:5]
                line = f"  {violation['impact']}: {violation['id']}: {violation['help']} ({'; '.join(targets)})"
                print(line)
                if violation["impact"] in FAILING:
                    failures.append(f"{page}: {line.strip()}")
    finally:
        driver.quit()
    if failures:
        print("serious or critical violations:\n" + "\n".join(failures))
        sys.exit(1)
    print("ok   no serious or critical violation")


if __name__ == "__main__":
    main()

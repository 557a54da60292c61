"""Runs Placement's gabbi files, unmodified, against live servers.

Arguments: NAME.yaml=URL pairs, each file against its own server (a fresh
database). Prints one `RESULT name passed total` line per file, then the
failures. Exit status 0 whatever the results: the caller compares them
with the committed floor.
"""

import importlib.util
import os
import sys
import unittest

from gabbi import handlers, suitemaker, utils

import placement_fixtures


def gabbits_dir():
    spec = importlib.util.find_spec('placement')
    return os.path.join(list(spec.submodule_search_locations)[0], 'tests', 'functional', 'gabbits')


class Counting(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


def main():
    directory = gabbits_dir()
    handler_objects = [h() for h in handlers.RESPONSE_HANDLERS]
    failures = []
    for arg in sys.argv[1:]:
        name, url = arg.split('=', 1)
        os.environ['PLACEMENT_TEST_URL'] = url
        host, port, prefix, _ = utils.host_info_from_target(url)
        path = os.path.join(directory, name)
        suite_dict = utils.load_yaml(yaml_file=path, safe=True)
        total = len(suite_dict['tests'])
        loader = unittest.TestLoader()
        test_base = os.path.splitext(name)[0].replace('_', '-')
        suite = suitemaker.test_suite_from_dict(
            loader, test_base, suite_dict, directory, host, port,
            placement_fixtures, None, prefix=prefix, handlers=handler_objects,
            test_loader_name='placement')
        result = Counting()
        suite.run(result)
        print('RESULT %s %d %d' % (name, result.passed, total), flush=True)
        for test, trace in result.failures + result.errors:
            failures.append('%s: %s\n%s' % (name, test.id(), trace[-1500:]))
    if os.environ.get('GABBI_VERBOSE'):
        print('\n'.join(failures))
    else:
        print('%d failing tests (set GABBI_VERBOSE=1 to see them)' % len(failures))


if __name__ == '__main__':
    main()

"""Python jsonschema's verdict on cases the Rust test sends.

Reads a JSON list of {"schema", "instance"} from the file named by argv[1];
prints a JSON list with, for each case, every error of iter_errors (the
instance path as a JSON Pointer, the keyword, the message) and the message
of best_match, as Nova (first error) and Placement (best_match) report them.
"""
import json
import sys

import jsonschema
from jsonschema.exceptions import best_match


def pointer(path):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def verdict(case):
    cls = jsonschema.validators.validator_for(case["schema"], default=jsonschema.Draft202012Validator)
    validator = cls(case["schema"], format_checker=cls.FORMAT_CHECKER)
    errors = list(validator.iter_errors(case["instance"]))
    best = best_match(validator.iter_errors(case["instance"]))
    return {
        "errors": sorted(
            [{"path": pointer(e.absolute_path), "keyword": e.validator, "message": e.message} for e in errors],
            key=lambda e: (e["path"], e["keyword"], e["message"]),
        ),
        "best": best.message if best is not None else None,
    }


with open(sys.argv[1]) as f:
    cases = json.load(f)
print(json.dumps([verdict(c) for c in cases]))

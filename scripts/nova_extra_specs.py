"""Writes Nova's extra spec validators (microversion 2.86) as data for the
compute example: examples/compute/src/extra_specs.json.

Usage: python nova_extra_specs.py OUT.json, in a Python environment where
Nova is installed (`pip install nova`): it loads the validators as Nova's
API does (`nova.api.validation.extra_specs.validators`, through stevedore's
entry points) and writes each one, in Nova's lookup order, with what its
check needs: the name's pattern, the value's type and its pattern, choices
or bounds. Nova's own messages quote these, so they are kept as Nova
writes them.
"""

import json
import sys
from importlib import metadata

from nova.api.validation.extra_specs import validators


def value_rule(validator):
    value = validator.value
    kind = {int: "int", bool: "bool", str: "str"}[value["type"]]
    rule = {"type": kind}
    if kind == "int":
        for bound in ("min", "max"):
            if bound in value:
                rule[bound] = value[bound]
    elif kind == "str":
        if "pattern" in value:
            rule["pattern"] = validator.value_regex
        elif "enum" in value:
            # `value not in enum` with a string value: only strings can match.
            rule["enum"] = [choice for choice in value["enum"] if isinstance(choice, str)]
            rule["enum_text"] = ", ".join(str(choice) for choice in value["enum"])
    return rule


def main(out):
    document = {
        "nova": metadata.version("nova"),
        "validators": [
            {"name": v.name, "name_regex": v.name_regex, "value": value_rule(v)}
            for v in validators.VALIDATORS.values()
        ],
        "namespaces": sorted(validators.NAMESPACES),
    }
    with open(out, "w") as f:
        json.dump(document, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"{len(document['validators'])} validators, {len(document['namespaces'])} namespaces, nova {document['nova']}")


if __name__ == "__main__":
    main(sys.argv[1])

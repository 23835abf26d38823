#!/usr/bin/env python3
"""Runs TraceLens's own validate_report on analysis directories, without pandas.

Usage: tracelens_validate_report.py TRACELENS_ROOT SCOPE DIR [DIR...]
  TRACELENS_ROOT  the directory holding the TraceLens package (reference/tracelens)
  SCOPE           standalone | comparative | none (Python None)

Prints one JSON object per line: {"dir": DIR, "passed": bool, "errors": [...]}.

validation_utils imports report_utils, which imports pandas at module level, but
validate_report itself never touches pandas: an empty stand-in module satisfies the import.
The package's __init__ files (which pull in the whole of TraceLens) are bypassed by loading
the two modules from their files under a synthetic package name.
"""
import importlib.util
import json
import os
import sys
import types


def load(root):
    utils_dir = os.path.join(root, "TraceLens", "Agent", "Analysis", "utils")
    sys.modules.setdefault("pandas", types.ModuleType("pandas"))
    package = types.ModuleType("tl_utils")
    package.__path__ = [utils_dir]
    sys.modules["tl_utils"] = package
    for name in ("report_utils", "validation_utils"):
        spec = importlib.util.spec_from_file_location(
            "tl_utils." + name, os.path.join(utils_dir, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules["tl_utils." + name] = module
        spec.loader.exec_module(module)
    return sys.modules["tl_utils.validation_utils"]


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    validation = load(argv[1])
    scope = None if argv[2] == "none" else argv[2]
    for directory in argv[3:]:
        try:
            passed, errors = validation.validate_report(directory, comparison_scope=scope)
            out = {"dir": directory, "passed": passed, "errors": errors}
        except Exception as e:  # TraceLens raises on some malformed inputs
            out = {"dir": directory, "exception": type(e).__name__ + ": " + str(e)}
        print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

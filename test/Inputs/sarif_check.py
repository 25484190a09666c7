"""sarif_check.py SCHEMA FILE - validates FILE against the SARIF 2.1.0 JSON
schema SCHEMA (the OASIS schema, draft-04; the test suite takes it from the
npm package @microsoft/jest-sarif, which build.sh installs) with the
jsonschema module (Debian's python3-jsonschema). Prints "SARIF valid: N
results" or the first errors, and exits 1 on an invalid file."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
validator = jsonschema.Draft4Validator(schema)
errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:10]:
    print("SARIF INVALID at %s: %s" % ("/".join(map(str, e.path)), e.message))
if errors:
    sys.exit(1)
print("SARIF valid: %d results" % sum(len(r.get("results", [])) for r in doc["runs"]))

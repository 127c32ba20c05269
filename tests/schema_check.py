#!/usr/bin/env python3
"""Validate collscope reports against the JSON Schema that `collscope schema` prints.

usage: schema_check.py --bin COLLSCOPE REPORT...   (each against its command's schema)
       schema_check.py --schema SCHEMA.json REPORT...

The subset of JSON Schema (draft 2020-12) that collscope's schema uses: type
(a name or a list), required, properties, additionalProperties (true, false
or a schema), items, enum, const, minimum. Any other keyword is an annotation
(title, description, $schema) and ignored. Stdlib only. Exit 0 when every
report is valid, 1 (naming each error by its JSON path) when one is not, 2 on
bad usage or unreadable input.
"""
import json
import subprocess
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    # bool is an int in Python, not a number in JSON
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool)
    or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def validate(value, schema, path, errors):
    """Append to errors one line per violation of schema by value at path."""
    if schema is True or schema == {}:
        return
    if schema is False:
        errors.append("%s: not allowed" % path)
        return
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        if not any(TYPES[t](value) for t in names):
            errors.append("%s: %s is not %s" % (path, json.dumps(value)[:60], " or ".join(names)))
            return
    if "const" in schema and value != schema["const"]:
        errors.append("%s: %s is not %s" % (path, json.dumps(value), json.dumps(schema["const"])))
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %s is not one of %s" % (path, json.dumps(value), schema["enum"]))
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        errors.append("%s: %s is below the minimum %s" % (path, value, schema["minimum"]))
    if isinstance(value, dict):
        validate_object(value, schema, path, errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], "%s[%d]" % (path, i), errors)


def validate_object(value, schema, path, errors):
    props = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            errors.append("%s: required field '%s' is missing" % (path, name))
    extra = schema.get("additionalProperties", True)
    for name, member in value.items():
        where = "%s.%s" % (path, name) if path else name
        if name in props:
            validate(member, props[name], where, errors)
        else:
            validate(member, extra, where, errors)


def schema_of(binary, command, cache):
    if command not in cache:
        out = subprocess.run([binary, "schema", command], capture_output=True, text=True)
        if out.returncode != 0:
            raise ValueError("'%s schema %s' exited %d: %s"
                             % (binary, command, out.returncode, out.stderr.strip()))
        cache[command] = json.loads(out.stdout)
    return cache[command]


def main(argv):
    if len(argv) < 3 or argv[0] not in ("--bin", "--schema"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    cache, fixed = {}, None
    try:
        if argv[0] == "--schema":
            with open(argv[1]) as f:
                fixed = json.load(f)
        bad = 0
        for path in argv[2:]:
            with open(path) as f:
                report = json.load(f)
            command = report.get("command") if isinstance(report, dict) else None
            schema = fixed or schema_of(argv[1], str(command), cache)
            errors = []
            validate(report, schema, "", errors)
            for e in errors[:20]:
                print("%s: %s" % (path, e))
            if len(errors) > 20:
                print("%s: ... %d more" % (path, len(errors) - 20))
            bad += bool(errors)
    except (OSError, ValueError) as e:
        print("schema_check: %s" % e, file=sys.stderr)
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""A strict checker of the OpenMetrics text format (the subset a file of
gauges and counters uses), for collscope watch's --metrics file: no parser
package is available offline (prometheus_client is not installed here).

Checks, after the OpenMetrics 1.0 ABNF: every line ends in \\n, no blank
lines, the last line is '# EOF' and nothing follows; metadata lines are
'# TYPE', '# UNIT' and '# HELP' only, each at most once per family and
before its samples; families are contiguous and named once; a family with
a UNIT ends in _<unit>; names and label names match their patterns; label
values use only the escapes \\\\, \\" and \\n; no label twice, no label set
twice; a counter's samples are <name>_total (or _created), not negative and
not NaN, and its family name does not end in _total; a gauge's samples are
its name; numbers are decimal, NaN or +-Inf. Exit 0, or 1 naming the first
problem with its line number.

    python3 tests/openmetrics_check.py FILE [--prefix collscope_watch_]
"""
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\Z")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*\Z")
NUMBER = re.compile(r"[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[iI][nN][fF]([iI][nN][iI][tT][yY])?)\Z")
TYPES = {"counter", "gauge", "histogram", "gaugehistogram", "stateset", "info", "summary", "unknown"}
SUFFIXES = {"counter": ["_total", "_created"], "gauge": [""], "unknown": [""], "info": ["_info"],
            "summary": ["", "_count", "_sum", "_created"], "stateset": [""],
            "histogram": ["_bucket", "_count", "_sum", "_created"],
            "gaugehistogram": ["_bucket", "_gcount", "_gsum"]}


class Bad(Exception):
    pass


def parse_labels(text):
    """'{a="x",b="y"}' -> [(a, x), (b, y)], strictly."""
    labels, i = [], 1
    if text == "{}":
        return labels
    while True:
        m = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*").match(text, i)
        if not m or text[m.end():m.end() + 2] != '="':
            raise Bad("bad label name or '=\"' at %r" % text[i:i + 20])
        name, i, value = m.group(0), m.end() + 2, []
        while True:
            if i >= len(text):
                raise Bad("unterminated label value")
            c = text[i]
            if c == "\\":
                esc = text[i + 1:i + 2]
                if esc not in ('\\', '"', 'n'):
                    raise Bad("bad escape \\%s in a label value" % esc)
                value.append({"n": "\n"}.get(esc, esc))
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == "\n":
                raise Bad("newline in a label value")
            else:
                value.append(c)
                i += 1
        if any(n == name for n, _ in labels):
            raise Bad("label %s twice" % name)
        labels.append((name, "".join(value)))
        if text[i:] == "}":
            return labels
        if text[i:i + 1] != ",":
            raise Bad("expected ',' or '}' after label %s" % name)
        i += 1


def split_sample(line):
    """name, labels text or None, the rest."""
    m = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*").match(line)
    if not m:
        raise Bad("a sample must start with a metric name")
    name, rest = m.group(0), line[m.end():]
    labels = None
    if rest.startswith("{"):
        i, quoted = 1, False
        while i < len(rest):
            if quoted and rest[i] == "\\":
                i += 2
                continue
            if rest[i] == '"':
                quoted = not quoted
            elif rest[i] == "}" and not quoted:
                break
            i += 1
        if i >= len(rest):
            raise Bad("unterminated label set")
        labels, rest = rest[:i + 1], rest[i + 1:]
    return name, labels, rest


class Family:
    def __init__(self, name):
        self.name, self.type, self.unit, self.help = name, None, None, None
        self.samples, self.seen = 0, set()


def meta(fam, families, line, kind, name, value):
    if not NAME.match(name):
        raise Bad("bad metric name %r" % name)
    if fam is None or fam.name != name:
        if name in families:
            raise Bad("family %s is not contiguous (seen before)" % name)
        fam = families[name] = Family(name)
    if fam.samples:
        raise Bad("# %s of %s after its samples" % (kind, name))
    if getattr(fam, kind.lower()) is not None:
        raise Bad("# %s of %s twice" % (kind, name))
    if kind == "TYPE":
        if value not in TYPES:
            raise Bad("unknown type %r" % value)
        if value == "counter" and name.endswith("_total"):
            raise Bad("counter family %s must not end in _total" % name)
    if kind == "UNIT" and value and not name.endswith("_" + value):
        raise Bad("family %s has unit %s but does not end in _%s" % (name, value, value))
    if kind == "HELP" and re.search(r'\\[^\\"n]', value):
        raise Bad("bad escape in HELP")
    setattr(fam, kind.lower(), value)
    return fam


def sample(fam, families, line):
    name, labels, rest = split_sample(line)
    if fam is None:
        raise Bad("sample %s before any family metadata" % name)
    ftype = fam.type or "unknown"
    if name not in [fam.name + s for s in SUFFIXES[ftype]]:
        raise Bad("sample %s does not belong to family %s (%s)" % (name, fam.name, ftype))
    parts = rest.split(" ")
    if len(parts) not in (2, 3) or parts[0] != "":
        raise Bad("expected one space, a value and perhaps a timestamp")
    value = parts[1]
    if not (NUMBER.match(value) or value == "NaN"):
        raise Bad("bad number %r" % value)
    if len(parts) == 3 and not NUMBER.match(parts[2]):
        raise Bad("bad timestamp %r" % parts[2])
    key = (name, tuple(sorted(parse_labels(labels) if labels else [])))
    if key in fam.seen:
        raise Bad("label set %r of %s twice" % (key[1], name))
    fam.seen.add(key)
    if ftype == "counter" and name.endswith("_total") and (value == "NaN" or float(value) < 0):
        raise Bad("counter %s is %s" % (name, value))
    fam.samples += 1


def check(text, prefix=None):
    if not text.endswith("# EOF\n"):
        raise Bad("the file does not end with '# EOF' and a newline", 0)
    lines = text[:-len("# EOF\n")].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    families, fam = {}, None
    for n, line in enumerate(lines, 1):
        try:
            if line == "" or "\r" in line:
                raise Bad("blank line or carriage return")
            if line == "# EOF":
                raise Bad("# EOF before the end")
            if line.startswith("#"):
                m = re.match(r"# (TYPE|UNIT|HELP) (\S+)(?: (.*))?\Z", line)
                if not m:
                    raise Bad("a comment other than # TYPE, # UNIT, # HELP or # EOF")
                value = m.group(3) if m.group(3) is not None else ""
                fam = meta(fam, families, line, m.group(1), m.group(2), value)
                if prefix and not m.group(2).startswith(prefix):
                    raise Bad("family %s lacks the prefix %s" % (m.group(2), prefix))
            else:
                sample(fam, families, line)
        except Bad as e:
            raise Bad("line %d: %s: %r" % (n, e.args[0], line))
    return families


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    prefix = argv[argv.index("--prefix") + 1] if "--prefix" in argv else None
    try:
        with open(argv[1], encoding="utf-8", newline="") as f:
            families = check(f.read(), prefix)
    except Bad as e:
        print("openmetrics_check: %s: %s" % (argv[1], e.args[0]))
        return 1
    samples = sum(f.samples for f in families.values())
    print("openmetrics_check: %s: %d families, %d samples, valid" % (argv[1], len(families), samples))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

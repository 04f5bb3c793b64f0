#!/usr/bin/env python3
# A strict parser of the OpenMetrics 1.0 text format, as much of it as scampaign --openmetrics
# uses (gauges and counters, no timestamps or exemplars). Reads stdin; prints one JSON object
# {"name{label=value,...}": value}; exits 1 with the line at fault on any deviation.
import json
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
VALUE = r'"((?:[^"\\\n]|\\[\\"n])*)"'
SAMPLE = re.compile(rf"^({NAME})(?:\{{((?:{LABEL}={VALUE})(?:,{LABEL}={VALUE})*)?\}})? (\S+)$")
PAIR = re.compile(rf"({LABEL})={VALUE}")
UNESCAPE = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


def die(number, line, why):
    sys.exit(f"parse_openmetrics: line {number}: {why}: {line!r}")


def main():
    text = sys.stdin.read()
    if not text.endswith("# EOF\n"):
        sys.exit("parse_openmetrics: the exposition does not end with '# EOF'")
    lines = text[: -len("# EOF\n")].split("\n")[:-1] if text != "# EOF\n" else []
    families, samples = {}, {}
    family, state = None, None
    for number, line in enumerate(lines, 1):
        if line.startswith("# HELP "):
            parts = line.split(" ", 3)
            if len(parts) < 4 or not re.fullmatch(NAME, parts[2]):
                die(number, line, "bad HELP")
            if parts[2] in families:
                die(number, line, "family declared twice")
            family, state = parts[2], "help"
            families[family] = None
        elif line.startswith("# TYPE "):
            parts = line.split(" ")
            if len(parts) != 4 or parts[2] != family or state != "help":
                die(number, line, "TYPE not right after its family's HELP")
            if parts[3] not in ("gauge", "counter"):
                die(number, line, "unexpected type")
            families[family], state = parts[3], "type"
        elif line.startswith("#"):
            die(number, line, "unexpected comment (or '# EOF' before the end)")
        else:
            match = SAMPLE.match(line)
            if not match or family is None or families[family] is None:
                die(number, line, "not a sample of a declared family")
            name, labels = match.group(1), match.group(2) or ""
            wanted = family + "_total" if families[family] == "counter" else family
            if name != wanted:
                die(number, line, f"sample name is not {wanted}")
            try:
                value = float(match.group(match.lastindex))
            except ValueError:
                die(number, line, "value is not a number")
            if families[family] == "counter" and value < 0:
                die(number, line, "negative counter")
            pairs = [(key, re.sub(r'\\[\\"n]', lambda m: UNESCAPE[m.group(0)], raw))
                     for key, raw in PAIR.findall(labels)]
            if len({key for key, _ in pairs}) != len(pairs):
                die(number, line, "label repeated")
            key = name + "{" + ",".join(f"{k}={v}" for k, v in pairs) + "}"
            if key in samples:
                die(number, line, "sample repeated")
            samples[key] = value
            state = "samples"
    print(json.dumps(samples))


main()

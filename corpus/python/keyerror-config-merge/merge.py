"""Layered configuration: defaults, a file and the command line, merged in order,
checked against a schema, then summarised."""

SCHEMA = {"server.port": int, "server.workers": int, "cache.size": int, "cache.ttl": float}

DEFAULTS = {"server": {"port": 8080, "workers": 4}, "cache": {"size": 1024, "ttl": 30.0}}


class Layer:
    def __init__(self, name, values, priority=0):
        self.name = name
        self.values = values
        self.priority = priority

    def items(self, prefix=""):
        for key, value in self.values.items():
            path = prefix + key
            if isinstance(value, dict):
                yield from Layer(self.name, value).items(path + ".")
            else:
                yield path, value


def parse_pairs(lines):
    values = {}
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            section, _, leaf = key.partition(".")
            values.setdefault(section, {})[leaf] = value
    return values


def merge(layers):
    merged, origin = {}, {}
    for layer in sorted(layers, key=lambda l: l.priority):
        for key, value in layer.items():
            merged[key] = SCHEMA[key](value)
            origin[key] = layer.name
    return merged, origin


def summary(merged, origin):
    overridden = [key for key, name in origin.items() if name != "defaults"]
    per_worker = merged["cache.size"] // merged["server.workers"]
    return {
        "overridden": len(overridden),
        "per_worker": per_worker,
        "retention": merged["cache.retention"] * merged["cache.ttl"],
    }


def main(argv):
    text = "server.port = 9090\nserver.workers = 8\n# tuning\ncache.ttl = 12.5\n"
    layers = [
        Layer("defaults", DEFAULTS),
        Layer("file", parse_pairs(text.splitlines()), priority=1),
        Layer("argv", parse_pairs(a[2:] for a in argv if a.startswith("--")), 2),
    ]
    merged, origin = merge(layers)
    print(summary(merged, origin))


main(["--cache.size=2048", "--server.port=8000"])

"""The types of the engine's contracts with the page, generated from their one declaration each.

Two JSON Schemas declare what crosses the seam between rules_py and the page:

* ``rules_py/data/answer.schema.json``, the typed answer (what every op
  answers); from it this script writes ``rules_py/answer/shapes.py``, a
  ``TypedDict`` per object of the schema (``$defs``), which the answer's
  builders return and mypy checks, and ``types/answer.d.ts``, the same as
  TypeScript types, which the page's renderers read through JSDoc
  (``@typedef {import(...).OddsAnswer}``) and tsc checks;
* ``rules_py/data/calculator.schema.json``, what calculators.json holds
  (``Calculator.schema()``, which the page builds its forms from) and the
  engine's refusal of bad input; from it ``rules_py/calculator_shapes.py``, the
  types ``Calculator.schema()`` returns, and ``types/calculator.d.ts``.

One more contract is data rather than types: the map grid's grammar, which its
two parsers (``rules_py/grid.py`` and the page's ``docs/assets/calc/grid.mjs``)
both read: what a character may follow, how often it may be given, the sizes,
the blanks and every refusal's message (``grid.GRAMMAR``), which this script
writes into ``docs/assets/calc/grid-grammar.mjs`` for the page (:func:`grid_grammar`).

Each ``$defs`` entry becomes a type named after it (``odds_answer``:
``OddsAnswer``): an object with ``properties`` an interface (a key outside
``required`` is optional), anything else a type alias. It reads the subset
of JSON Schema the declarations keep to and refuses any other keyword, so
that nothing in a schema goes untyped: ``type``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``prefixItems``,
``$ref``, ``oneOf``, ``enum``, ``const`` and ``description``; ``pattern``,
``minLength``, ``maxLength``, ``minItems``, ``maxItems`` and ``minimum`` are
checks that only the validator makes (a string is a string to both type systems).

    python -m scripts.build.schema_types           # write every generated file
    python -m scripts.build.schema_types --check   # exit 1 if one is not what its schema (or grid.py) gives
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scripts.build.page_templates import render

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Contract:
    """One schema, the two files generated from it, and what each header says they are for."""

    schema: Path
    python: Path
    typescript: Path
    what: str  # "The typed answer's types"
    python_use: str  # who returns the Python types
    typescript_use: str  # who reads the TypeScript types, and how

    def generate(self) -> tuple[str, str]:
        return generate(json.loads(self.schema.read_text(encoding="utf-8")), self)


ANSWER = Contract(
    ROOT / "rules_py" / "data" / "answer.schema.json",
    ROOT / "rules_py" / "answer" / "shapes.py",
    ROOT / "types" / "answer.d.ts",
    "The typed answer's types",
    "The answer's builders return them; mypy checks it.",
    'The page\'s renderers read them through JSDoc: /** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */.',
)
CALCULATORS = Contract(
    ROOT / "rules_py" / "data" / "calculator.schema.json",
    ROOT / "rules_py" / "calculator_shapes.py",
    ROOT / "types" / "calculator.d.ts",
    "The types of calculators.json and of the engine's refusals",
    "Calculator.schema() returns them; mypy checks it.",
    'The page reads them through JSDoc: /** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */.',
)
CONTRACTS = (ANSWER, CALCULATORS)

KNOWN = {"type", "properties", "required", "additionalProperties", "items", "prefixItems", "$ref", "oneOf", "enum", "const", "description"}
CHECKS = {"pattern", "minLength", "maxLength", "minItems", "maxItems", "minimum"}  # the validator's alone
TOP = {"$schema", "$id", "title", "description", "$ref", "$defs"}
SCALARS = {"string": ("str", "string"), "integer": ("int", "number"), "boolean": ("bool", "boolean"), "null": ("None", "null")}


def type_name(name: str) -> str:
    """A $defs entry's type name: odds_answer -> OddsAnswer."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


class Types:
    """A schema node as a Python annotation and a TypeScript type."""

    def __init__(self, defs: dict[str, Any]):
        self.defs = defs

    def both(self, node: dict[str, Any], where: str) -> tuple[str, str]:
        unknown = set(node) - KNOWN - CHECKS
        if unknown:
            raise SystemExit(f"{where}: keyword(s) {sorted(unknown)} are not read by scripts/build/schema_types.py: keep to its subset")
        if "$ref" in node:
            ref = node["$ref"]
            prefix = "#/$defs/"
            if not ref.startswith(prefix) or ref[len(prefix) :] not in self.defs:
                raise SystemExit(f"{where}: $ref {ref!r} is not a $defs entry")
            name = type_name(ref[len(prefix) :])
            return name, name
        if "const" in node:
            return f"Literal[{_python_literal(node['const'])}]", json.dumps(node["const"])
        if "enum" in node:
            return f"Literal[{', '.join(_python_literal(v) for v in node['enum'])}]", " | ".join(json.dumps(v) for v in node["enum"])
        if "oneOf" in node:
            parts = [self.both(option, f"{where}/oneOf/{i}") for i, option in enumerate(node["oneOf"])]
            return _union([p for p, _ in parts], "None"), _union([t for _, t in parts], "null")
        kind = node.get("type")
        if isinstance(kind, list):
            parts = [self.both({**node, "type": k}, where) for k in kind]
            return _union([p for p, _ in parts], "None"), _union([t for _, t in parts], "null")
        if kind in SCALARS:
            return SCALARS[kind]
        if kind == "array":
            if "prefixItems" in node:
                items = [self.both(item, f"{where}/prefixItems/{i}") for i, item in enumerate(node["prefixItems"])]
                item_types = {p for p, _ in items}
                if len(item_types) != 1:
                    raise SystemExit(f"{where}: prefixItems of several types")
                return f"list[{item_types.pop()}]", "[" + ", ".join(t for _, t in items) + "]"
            py, ts = self.both(node.get("items", {"type": "string"}), f"{where}/items")
            return f"list[{py}]", f"{ts}[]" if ts.isidentifier() else f"({ts})[]"
        if kind == "object":
            if "properties" in node:
                raise SystemExit(f"{where}: an object with properties must be a $defs entry of its own, so that it has a name")
            py, ts = self.both(node.get("additionalProperties", {"type": "string"}), f"{where}/additionalProperties")
            return f"dict[str, {py}]", f"Record<string, {ts}>"
        raise SystemExit(f"{where}: no type")


def _python_literal(value: Any) -> str:
    """A JSON value as Python spells it in a Literal: true is True; a string or a number as JSON has it."""
    return repr(value) if isinstance(value, bool) or value is None else json.dumps(value)


def _union(parts: list[str], null: str) -> str:
    """A union with the null last (X | None), each member once."""
    ordered = list(dict.fromkeys([p for p in parts if p != null] + [p for p in parts if p == null]))
    return " | ".join(ordered)


def _is_interface(node: dict[str, Any]) -> bool:
    return node.get("type") == "object" and "properties" in node


def _comment(text: str, indent: str, style: str) -> list[str]:
    if style == "py":
        return [f"{indent}# {line}" for line in _wrap(text, 100 - len(indent))]
    lines = _wrap(text, 96 - len(indent))
    return [f"{indent}/** {lines[0]} */"] if len(lines) == 1 else [f"{indent}/**", *(f"{indent} * {line}" for line in lines), f"{indent} */"]


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def generate(schema: dict[str, Any], contract: Contract = ANSWER) -> tuple[str, str]:
    """(the Python module, the TypeScript declarations) for this schema, headed as the contract says."""
    unknown = set(schema) - TOP
    if unknown:
        raise SystemExit(f"the schema's top level has {sorted(unknown)}, which scripts/build/schema_types.py does not read")
    defs = schema["$defs"]
    types = Types(defs)
    source = contract.schema.relative_to(ROOT).as_posix()
    py_classes: list[str] = []
    py_aliases: list[str] = []
    ts: list[str] = [
        f"// {contract.what}, generated from {source} by scripts/build/schema_types.py:",
        "// do not edit (make check fails when they differ from what the schema gives).",
        f"// {contract.typescript_use}",
        "",
    ]
    for name, node in defs.items():
        cls = type_name(name)
        description = node.get("description")
        if _is_interface(node):
            extra = set(node) - {"type", "properties", "required", "additionalProperties", "description"}
            if extra or node.get("additionalProperties") is not False:
                raise SystemExit(f"$defs/{name}: an object type needs additionalProperties false and nothing but its properties ({sorted(extra)})")
            required = set(node.get("required", ()))
            missing = required - set(node["properties"])
            if missing:
                raise SystemExit(f"$defs/{name}: required {sorted(missing)} are not among its properties")
            py_lines = [f"class {cls}(TypedDict):"]
            if description:
                py_lines.append(f'    """{_docstring(description)}"""')
                py_lines.append("")
            ts.extend(_comment(description, "", "ts") if description else [])
            ts.append(f"export interface {cls} {{")
            for key, prop in node["properties"].items():
                py, t = types.both(prop, f"$defs/{name}/properties/{key}")
                if prop.get("description"):
                    py_lines.extend(_comment(prop["description"], "    ", "py"))
                    ts.extend(_comment(prop["description"], "  ", "ts"))
                py_lines.append(f"    {key}: {py}" if key in required else f"    {key}: NotRequired[{py}]")
                ts.append(f"  {key}{'' if key in required else '?'}: {t};")
            ts.append("}")
            py_classes.append("\n".join(py_lines))
        else:
            py, t = types.both(node, f"$defs/{name}")
            lines = _comment(description, "", "py") if description else []
            py_aliases.append("\n".join([*lines, f"{cls}: TypeAlias = {_forward(py, defs)}"]))
            ts.extend(_comment(description, "", "ts") if description else [])
            ts.append(f"export type {cls} = {t};")
        ts.append("")
    python = "\n".join(
        [
            '"""' + "\n".join(_wrap(
                f"{contract.what}, generated from {source} by scripts/build/schema_types.py: do not edit"
                f" (make check fails when they differ from what the schema gives). {contract.python_use}"
                " Imported for type checking only, so that the engine's start pays nothing for them.", 88)),
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Literal, NotRequired, TypeAlias, TypedDict",
            "",
            "",
            "\n\n\n".join(py_classes),
            "",
            "",
            "\n\n".join(py_aliases),
            "",
        ]
    )
    return python, "\n".join(ts).rstrip("\n") + "\n"


def _docstring(text: str) -> str:
    lines = _wrap(text, 92)
    return lines[0] if len(lines) == 1 else "\n    ".join(lines) + "\n    "


def _forward(annotation: str, defs: dict[str, Any]) -> str:
    """An alias's value, quoted where it names a class (the aliases follow the classes,
    but an alias may name an alias defined after it)."""
    return f'"{annotation}"' if any(type_name(n) in annotation.replace("[", " ").replace("]", " ").replace("|", " ").split() for n in defs) else annotation


GRID = ROOT / "rules_py" / "grid.py"
GRID_GRAMMAR = ROOT / "docs" / "assets" / "calc" / "grid-grammar.mjs"


def grid_grammar() -> str:
    """docs/assets/calc/grid-grammar.mjs: rules_py/grid.py's GRAMMAR, as the page's parser reads it."""
    from rules_py import grid  # the package is installed (editable) wherever this runs

    return render("grid-grammar.mjs.j2", grammar=json.dumps(grid.GRAMMAR, indent=2, ensure_ascii=False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file differs from what its schema gives")
    args = parser.parse_args()
    written = [(contract.schema, path, text) for contract in CONTRACTS for path, text in zip((contract.python, contract.typescript), contract.generate())]
    written.append((GRID, GRID_GRAMMAR, grid_grammar()))
    stale = [(source, path) for source, path, text in written if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for source, path in stale:
            print(f"{path.relative_to(ROOT)} is not what {source.relative_to(ROOT)} gives: run python -m scripts.build.schema_types", file=sys.stderr)
        return 1 if stale else 0
    for _, path, text in written:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

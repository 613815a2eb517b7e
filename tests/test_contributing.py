"""docs/contributing.md stays true to the code.

- Every repository path the page names in backticks exists (a ``<name>`` placeholder or a
  ``*`` matches any name; ``file.py::name`` also needs ``name`` defined in that file), and
  no path points outside the repository.
- A step is a list item that starts with a backticked repository path (each numbered step
  of a checklist does). Every code name a step cites in backticks is found in one of the
  files that step names: as a name the code defines, imports, reads or uses as a string
  key (comments and docstrings do not count), or, in a file that is not Python, as a
  word of its text. A dotted name (``stack.count_value``, ``Game.snapshot``) is looked
  up in the module or class its prefix names, wherever that is.
- The layer diagram between the markers is what ``scripts/layer_diagram.py`` draws from
  pyproject.toml's ``[tool.importlinter]`` contracts.

Each check can fail. Besides the last three tests below, which feed the checkers broken
input, each was run against a broken page: renaming ``tests/test_rules_ops.py`` to
``tests/test_rules_opz.py`` in checklist 2 failed
``test_every_checklist_names_existing_files[2. A new card op]`` (and the whole-page path
test); moving ``DECISION_OPS`` into a step that names ``hon_env/spec/layout.py`` instead
of ``hon_env/core/validate.py`` failed ``test_names_cited_in_a_step_are_in_its_files``;
renaming a layer inside the embedded block failed
``test_layer_diagram_is_generated_from_the_contracts``, and so did drawing from a copy of
pyproject.toml without the ``render`` layer.
"""

from __future__ import annotations

import ast
import functools
import keyword
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "contributing.md"
SCRIPTS = ROOT / "scripts"
PY_TREES = ("hon_env", "agents", "scripts", "tests")  # where dotted names are looked up

_TOKEN = re.compile(r"`([^`\n]+)`")
_ITEM = re.compile(r"^(?:\d+\.|-) ")  # a list item at the left margin
_PLACEHOLDER = re.compile(r"<[^<>/]*>")
_NAME = re.compile(r"[A-Za-z_]\w*")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_GLOB_NAME = re.compile(r"\*?\w+\*?")  # CFG_*, *_FEATS, test_every_*
_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".toml", ".json", ".txt", ".cfg", ".sh")
_BARE_FILES = ("Makefile",)  # file names without a suffix


# --- reading the page ------------------------------------------------------------------


def _sections(text: str, level: str) -> dict[str, str]:
    """Heading -> body for the headings of ``level`` ("## ", "### ") in ``text``."""
    parts = re.split(rf"^{level}(.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def checklists(text: str) -> dict[str, str]:
    """Title -> body of each checklist (the ``###`` sections under "## Checklists")."""
    body = _sections(text, "## ").get("Checklists", "")
    return _sections(body, "### ")


def list_items(text: str) -> list[str]:
    """Each list item that starts at the left margin, with its indented continuation."""
    items: list[list[str]] = []
    open_item = False
    for line in text.splitlines():
        if _ITEM.match(line):
            items.append([line])
            open_item = True
        elif open_item and (line.startswith(" ") or not line.strip()):
            items[-1].append(line)
        else:
            open_item = False
    return ["\n".join(item).strip() for item in items]


def is_path(token: str) -> bool:
    """Is a backticked token a file path (rather than code, a command or a setting)?"""
    if any(c.isspace() for c in token) or token.startswith(("$", "~", "<", "-")):
        return False
    if any(c in token for c in "=()[]{}\"',"):
        return False
    head = token.split("::")[0]
    return "/" in head or head.endswith(_SUFFIXES) or head in _BARE_FILES


def outside(token: str) -> bool:
    """Does a path token point outside the repository?"""
    return token.startswith(("/", "../", "./..")) or "/../" in token


def _glob_of(path: str) -> str:
    return _PLACEHOLDER.sub("*", path)


def resolve(path: str, root: Path = ROOT) -> list[Path]:
    """The files or folders a path token names (several for a glob; none if missing)."""
    pattern = _glob_of(path.split("::")[0]).rstrip("/")
    if "*" in pattern:
        return sorted(root.glob(pattern))
    return [root / pattern] if (root / pattern).exists() else []


def path_problem(token: str, root: Path = ROOT) -> str | None:
    """Why a path token is wrong, or None."""
    if outside(token):
        return f"`{token}` points outside the repository"
    found = resolve(token, root)
    if not found:
        return f"`{token}` does not exist"
    if "::" in token:
        name = token.split("::", 1)[1]
        if not any(p.suffix == ".py" and name in top_level_defs(p) for p in found):
            return f"`{token}`: no def or class {name} in that file"
    return None


def step_files(item: str, root: Path = ROOT) -> list[Path] | None:
    """The files a step names (concrete paths and folders, not placeholders), or None when
    the item is not a step (its first token is not a repository path)."""
    tokens = _TOKEN.findall(item)
    if not tokens or not item.split(" ", 1)[1].startswith("`") or not is_path(tokens[0]):
        return None
    out: list[Path] = []
    for token in tokens:
        if is_path(token) and not outside(token) and "<" not in token and "*" not in token:
            path = root / token.split("::")[0]
            if path.is_dir():
                out += sorted(path.rglob("*.py"))
            elif path.exists():
                out.append(path)
    return out


def cited_names(item: str) -> list[str]:
    """The code names a step cites: backticked identifiers, dotted names and name globs
    (placeholders such as ``OP_<NAME>`` and keywords such as ``None`` aside)."""
    out = []
    for token in _TOKEN.findall(item):
        name = token[:-2] if token.endswith("()") else token
        if "<" in name or is_path(name) or keyword.iskeyword(name):
            continue
        if _NAME.fullmatch(name) or _DOTTED.fullmatch(name) or (
                "*" in name and _GLOB_NAME.fullmatch(name)):
            out.append(name)
    return out


# --- reading the code ------------------------------------------------------------------


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings or bare string statements."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(
                node.value.value, str):
            out.add(id(node.value))
    return out


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


@functools.cache
def code_names(path: Path) -> frozenset[str]:
    """Names a Python file defines, imports, reads or uses as string keys."""
    tree = _tree(path)
    docs = _docstring_nodes(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[-1])
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            out.add(node.arg)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs and _NAME.fullmatch(node.value)):
            out.add(node.value)
    return frozenset(out)


@functools.cache
def top_level_defs(path: Path) -> frozenset[str]:
    return frozenset(n.name for n in _tree(path).body
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))


@functools.cache
def text_words(path: Path) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", path.read_text(errors="replace")))


def names_in(path: Path) -> frozenset[str]:
    return code_names(path) if path.suffix == ".py" else text_words(path)


@functools.cache
def python_files(root: Path = ROOT) -> tuple[Path, ...]:
    return tuple(p for tree in PY_TREES for p in sorted((root / tree).rglob("*.py")))


def _module_path(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _class_members(path: Path, cls: str) -> frozenset[str] | None:
    """Names defined in the body of class ``cls`` of ``path`` (None: no such class)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            out = set()
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.add(stmt.name)
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    out |= {t.id for t in targets if isinstance(t, ast.Name)}
            return frozenset(out)
    return None


def dotted_found(name: str, first: list[Path], root: Path = ROOT) -> bool:
    """``prefix.member``: ``member`` is in a module whose dotted path ends with ``prefix``,
    or in the body of a class named ``prefix`` (looked for in ``first``, then anywhere)."""
    prefix, member = name.rsplit(".", 1)
    modules = [p for p in python_files(root)
               if (_module_path(p, root) + ".").endswith("." + prefix + ".")
               or _module_path(p, root) == prefix]
    if any(member in code_names(p) for p in modules):
        return True
    if "." in prefix:
        return False
    for path in [p for p in first if p.suffix == ".py"] + list(python_files(root)):
        members = _class_members(path, prefix)
        if members is not None and member in members:
            return True
    return False


def name_problem(name: str, files: list[Path], root: Path = ROOT) -> str | None:
    """Why a name a step cites is not where the step says, or None."""
    if "." in name and "*" not in name:
        return None if dotted_found(name, files, root) else f"`{name}` not found"
    if "*" in name:
        pattern = re.compile(re.escape(name).replace(r"\*", r"\w*"))
        if any(pattern.fullmatch(n) for f in files for n in names_in(f)):
            return None
    elif any(name in names_in(f) for f in files):
        return None
    named = ", ".join(str(f.relative_to(root)) for f in files) or "no file"
    return f"`{name}` is in none of the files the step names ({named})"


# --- the page --------------------------------------------------------------------------

TEXT = DOC.read_text()
CHECKLISTS = checklists(TEXT)


def test_the_page_has_the_checklists():
    """One checklist per usual change, each a numbered list of steps."""
    titles = " / ".join(CHECKLISTS)
    for topic in ("card op", "decision", "optional rule", "variant", "front end"):
        assert topic in titles, f"no checklist for a new {topic}: {titles}"
    for title, body in CHECKLISTS.items():
        steps = [i for i in list_items(body) if re.match(r"\d+\. ", i)]
        assert steps, f"{title}: no numbered steps"


@pytest.mark.parametrize("title", list(CHECKLISTS))
def test_every_checklist_names_existing_files(title):
    """Each numbered step starts with the file it touches, and every path exists."""
    body = CHECKLISTS[title]
    problems = []
    for item in list_items(body):
        if re.match(r"\d+\. ", item) and step_files(item) is None:
            problems.append(f"step does not start with a file: {item[:60]!r}")
    tokens = {t for t in _TOKEN.findall(body) if is_path(t)}
    problems += [p for t in sorted(tokens) if (p := path_problem(t))]
    assert tokens and not problems, "\n".join(problems)


def test_every_path_on_the_page_exists_and_is_in_the_repository():
    problems = [p for t in sorted({t for t in _TOKEN.findall(TEXT) if is_path(t)})
                if (p := path_problem(t))]
    links = re.findall(r"\]\(([^)]+)\)", _TOKEN.sub("", TEXT))  # code spans aside
    problems += [f"link {link} points outside the repository" for link in links
                 if outside(link) or (not link.startswith(("http", "#"))
                                      and not (DOC.parent / link.split("#")[0]).exists())]
    assert not problems, "\n".join(problems)


def test_names_cited_in_a_step_are_in_its_files():
    problems = []
    n_checked = 0
    for item in list_items(TEXT):
        files = step_files(item)
        if files is None:
            continue
        for name in cited_names(item):
            n_checked += 1
            if problem := name_problem(name, files):
                problems.append(f"{problem}\n    in: {item[:70]!r}")
    assert n_checked > 100 and not problems, "\n".join(problems)


@pytest.mark.parametrize("name, path", [
    ("OpSpec", "hon_env/spec/ops.py"),
    ("HERO_OPS", "hon_env/spec/ops.py"),
    ("is_choice_effect", "hon_env/core/content_ops.py"),
    ("DECISION_OPS", "hon_env/core/validate.py"),
])
def test_the_op_and_decision_vocabulary_is_documented_where_it_lives(name, path):
    """The names a new op or decision must be added to are cited in a step of the file
    that holds them (a step that drops them fails here)."""
    steps = [i for i in list_items(TEXT) if step_files(i) is not None]
    assert any(f"`{name}`" in s and f"`{path}`" in s for s in steps), (name, path)
    assert name in code_names(ROOT / path)


def test_layer_diagram_is_generated_from_the_contracts():
    """The block between the markers equals ``scripts/layer_diagram.py``'s drawing of the
    current pyproject.toml (``python scripts/layer_diagram.py --write`` rewrites it)."""
    diagram = _layer_diagram()
    config = diagram.load_contracts()
    assert diagram.embedded(TEXT) == diagram.block(config), (
        "stale layer diagram: run `python scripts/layer_diagram.py --write`")
    for contract in config["contracts"]:  # every contract is drawn
        assert contract["name"].split()[0] in diagram.embedded(TEXT)


# --- the checkers reject broken input ------------------------------------------------------


def test_path_checker_rejects_missing_and_outside_paths():
    assert path_problem("hon_env/spec/ops.py") is None
    assert path_problem("tests/test_<topic>.py") is None  # a placeholder matches any name
    assert path_problem("hon_env/content/opz.py") == "`hon_env/content/opz.py` does not exist"
    assert "outside" in path_problem("../shared/rules/000.txt")
    assert "no def or class" in path_problem("tests/test_op_codes.py::test_nothing_like_it")
    assert path_problem("tests/test_op_codes.py::test_codes_are_unique_and_named_once") is None


def test_step_parser_and_name_checker_reject_misplaced_names():
    page = ("## Checklists\n\n### 1. Something\n\n"
            "1. `hon_env/spec/layout.py`: add `DECISION_OPS`\n   and `D_RESCUE`.\n"
            "2. Then `hon_env/core/validate.py`: not a step.\n")
    (body,) = checklists(page).values()
    first, second = list_items(body)
    assert "D_RESCUE" in first and step_files(second) is None
    files = step_files(first)
    assert files == [ROOT / "hon_env/spec/layout.py"]
    assert cited_names(first) == ["DECISION_OPS", "D_RESCUE"]
    assert "none of the files" in name_problem("DECISION_OPS", files)
    assert name_problem("D_RESCUE", files) is None
    # comments and docstrings do not count: "numba" is only in layout.py's prose
    assert "numba" not in code_names(files[0])
    assert name_problem("D_*", files) is None and name_problem("Q_*", files) is not None
    assert name_problem("Game.snapshot", files) is None
    assert name_problem("Game.no_such_member", files) is not None
    assert name_problem("stack.count_value", []) is None
    assert name_problem("stack.no_such_function", []) is not None


def test_layer_diagram_changes_with_the_contracts():
    diagram = _layer_diagram()
    config = diagram.load_contracts()
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    fewer = {**config, "contracts": [{**layers, "layers": layers["layers"][1:]}]}
    assert diagram.block(fewer) != diagram.block(config)
    stale = diagram.rewrite(TEXT, fewer)
    assert diagram.embedded(stale) != diagram.block(config)
    with pytest.raises(ValueError, match="expected one"):
        diagram.embedded("no markers here")
    with pytest.raises(ValueError, match="draws"):
        diagram.diagram({"root_packages": ["x"], "contracts": [{"name": "n", "type": "odd"}]})


def _layer_diagram():
    """scripts/layer_diagram.py as a module (skipped where no TOML parser is installed)."""
    if sys.version_info < (3, 11):
        pytest.importorskip("tomli", reason="scripts/layer_diagram.py reads TOML")
    sys.path.insert(0, str(SCRIPTS))
    try:
        import layer_diagram
    finally:
        sys.path.remove(str(SCRIPTS))
    return layer_diagram


# the modules that turn the optional rules' plain data into tables and decoded objects
RULE_DECODERS = {"hon_env/content/compile.py", "hon_env/content/loader.py",
                 "hon_env/content/fame.py", "hon_env/content/draft.py",
                 "hon_env/replay.py"}  # replay rewrites the raw overrides it stores


def test_optional_rules_are_read_decoded_not_by_string_key():
    """Outside the decoders, nobody indexes a scenario's rules with the Fame or Draft
    variant's name: they read ``Scenario.fame_rule`` / ``draft_rule`` / ``draft_heroes``,
    decoded once."""
    found = []
    for path in sorted((ROOT / "hon_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in RULE_DECODERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "rules" and isinstance(node.slice, ast.Constant)
                    and node.slice.value in ("fame", "draft")):
                found.append(f"{rel}:{node.lineno}")
    assert not found, f"raw rule reads: {found}"

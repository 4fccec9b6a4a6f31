"""The rules wheel the browser unpacks, and the runtime.json that names it.

scripts/build/build_wheel.py makes a pure-Python wheel with ``pip wheel`` and adds
bytecode compiled by Pyodide's own Python (see STARTUP.md for why not
``pyodide build``). These check that it is what Pyodide expects: its file name
and tags say pure Python, every module has an unchecked-hash .pyc in RECORD,
and the vendored Pyodide, run in Node as the worker runs it in a browser,
unpacks it and imports ``rules_py`` from that bytecode alone.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import lzma
import shutil
import subprocess
import tomllib
import warnings
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.site

TESTED = tomllib.loads((ROOT / "tests" / "tested_versions.toml").read_text(encoding="utf-8"))
NAME = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


@pytest.fixture(scope="module")
def runtime(generated) -> dict:
    return json.loads((generated / "runtime.json").read_text())


@pytest.fixture(scope="module")
def packed(generated, runtime) -> Path:
    """The wheel as the site has it and the worker fetches it: xz-compressed."""
    return generated / runtime["wheel"]


@pytest.fixture(scope="module")
def wheel(packed, tmp_path_factory) -> Path:
    """The wheel the worker unpacks: the .xz inflated (as the page's xz-decompress does)."""
    assert packed.suffix == ".xz"
    target = tmp_path_factory.mktemp("wheel") / packed.name.removesuffix(".xz")
    target.write_bytes(lzma.decompress(packed.read_bytes(), format=lzma.FORMAT_XZ))
    return target


def test_runtime_names_the_wheel_and_its_hash(packed, runtime):
    assert runtime["sha256"] == hashlib.sha256(packed.read_bytes()).hexdigest()
    assert runtime["sizes"][runtime["wheel"]] == packed.stat().st_size
    assert runtime["pyodide"] == json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]


def test_wheel_is_pure_python_by_name_and_metadata(wheel):
    # PEP 427: {name}-{version}-{python tag}-{abi tag}-{platform tag}.whl; any platform, any ABI.
    assert wheel.name == f"{NAME['name']}-{NAME['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(f"{NAME['name']}-{NAME['version']}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: true" in meta.splitlines()
    assert "Tag: py3-none-any" in meta.splitlines()


def test_wheel_entries_are_stored_so_the_worker_writes_them_itself(wheel):
    # The worker writes a stored wheel's files from JavaScript (storedFiles in
    # docs/assets/calc/loader/stored-zip.mjs), sparing Python's zipfile after a start from
    # the snapshot; a deflated entry would send it back to Pyodide's unpackArchive.
    with zipfile.ZipFile(wheel) as z:
        deflated = [i.filename for i in z.infolist() if i.compress_type != zipfile.ZIP_STORED]
        names = [i.filename for i in z.infolist()]
    assert not deflated
    assert not [n for n in names if n.startswith("/") or ".." in n.split("/")]


def test_wheel_carries_each_calculator_s_module_as_discovery_finds_it(wheel):
    # rules_py.registry reads it, so that the browser's first answer imports one module.
    from rules_py import registry

    index_path = f"rules_py/data/{registry.INDEX}"
    with zipfile.ZipFile(wheel) as z:
        index = json.loads(z.read(index_path))
        record = z.read(f"{NAME['name']}-{NAME['version']}.dist-info/RECORD").decode()
    assert index == registry.modules()
    assert index["chq-comms-check"] == "rules_py.combat_hq.comms"
    assert any(line.startswith(index_path + ",sha256=") for line in record.splitlines())


def test_wheel_has_pyodide_bytecode_for_every_module_listed_in_record(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        modules = {n for n in names if n.endswith(".py")}
        assert "rules_py/dice/__init__.py" in modules and "rules_py/dice/odds.py" in modules
        for module in modules:
            folder, _, name = module.rpartition("/")
            pyc = f"{folder}/__pycache__/{name[:-3]}.cpython-314.pyc"
            assert pyc in names, pyc
            data = z.read(pyc)
            # PEP 552 header: magic, then flags 0b01 (hash-based, unchecked), then the source hash.
            assert int.from_bytes(data[4:8], "little") == 0b01, pyc
        (record_name,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        record = {}
        for line in z.read(record_name).decode().splitlines():
            path, digest, size = line.rsplit(",", 2)
            record[path] = (digest, size)
        assert set(record) == names
        for path in names - {record_name}:
            data = z.read(path)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert record[path] == (f"sha256={digest}", str(len(data))), path


# Run by Node (tests/node/pyodide_imports_the_wheel.mjs): boot the site's vendored Pyodide, unpack the wheel into
# site-packages as docs/assets/calc/worker.mjs does, then overwrite every
# rules_py source with a syntax error before importing it. An unchecked-hash
# .pyc is loaded without reading its source, but only when its magic number is
# this interpreter's: so the import, and an answer, can only come from bytecode
# that Pyodide's Python 3.14 accepts as its own. The standard library it booted
# from is the site's cut python_stdlib.zip, which holds bytecode alone: every
# module Python took from it came from a .pyc (with sources beside them, or
# bytecode of another Python, some would have been compiled from a .py).


@pytest.fixture(scope="module")
def pyodide_as_served(generated, tmp_path_factory) -> Path:
    """The site's Pyodide as the worker hands it to Pyodide: every .xz file inflated under its own name."""
    target = tmp_path_factory.mktemp("pyodide")
    for path in (generated / "pyodide").iterdir():
        if path.suffix == ".xz":
            (target / path.stem).write_bytes(lzma.decompress(path.read_bytes(), format=lzma.FORMAT_XZ))
        else:
            shutil.copy2(path, target / path.name)
    assert (target / "pyodide.asm.wasm").exists() and (target / "python_stdlib.zip").exists()
    return target


def test_pyodide_imports_the_wheel_from_its_own_bytecode(pyodide_as_served, wheel):
    node = shutil.which("node")
    assert node, "Node.js is needed (make site uses it too)"
    run = subprocess.run(
        [node, str(ROOT / "tests" / "node" / "pyodide_imports_the_wheel.mjs"), str(pyodide_as_served), str(wheel)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout)
    assert got["version"] == [3, 14] and got["cache_tag"] == "cpython-314"
    with zipfile.ZipFile(wheel) as z:
        pycs = [n for n in z.namelist() if n.endswith(".pyc")]
        assert got["broken_sources"] == len(pycs) > 0
        assert {z.read(n)[:4].hex() for n in pycs} == {got["magic"]}
    # Soviet Union, no boosts: P(success) = 11/32 (worked out in tests/test_browser_engine.py).
    assert got["success"] == {"false": "21/32", "true": "11/32"}
    # The boot, rules_py and an answer import over a hundred modules from the standard library's zip.
    assert len(got["stdlib_from"]) > 100 and set(got["stdlib_from"]) == {".pyc"}


def test_the_cut_standard_library_is_pyodide_s_bytecode_alone(generated, wheel):
    # Each module of the cut python_stdlib.zip as an unchecked hash-based .pyc (PEP 552:
    # flags 0b01) of the same Python as the wheel's bytecode, and no source: Python
    # compiles none of it as it starts (build_wheel.py, pyodide_bytecode.mjs).
    stdlib = zipfile.ZipFile(io.BytesIO(lzma.decompress((generated / "pyodide" / "python_stdlib.zip.xz").read_bytes(), format=lzma.FORMAT_XZ)))
    names = stdlib.namelist()
    assert not [n for n in names if n.endswith(".py")]
    pycs = [n for n in names if n.endswith(".pyc")]
    assert "encodings/__init__.pyc" in pycs and len(pycs) > 100
    with zipfile.ZipFile(wheel) as z:
        (magic,) = {z.read(n)[:4] for n in z.namelist() if n.endswith(".pyc")}
    for name in pycs:
        data = stdlib.read(name)
        assert data[:4] == magic and int.from_bytes(data[4:8], "little") == 0b01, name


def test_build_used_the_tested_node_and_chromium(runtime):
    # A warning, not a failure: another version may well work, but it is not what was tested.
    for tool in ("node", "chromium"):
        if runtime.get(tool) != TESTED[tool]:
            warnings.warn(
                f"the build used {tool} {runtime.get(tool)}, the project was tested with {TESTED[tool]} "
                "(tests/tested_versions.toml): run make test and update that file if all is well",
                stacklevel=1,
            )
    assert set(TESTED) == {"node", "chromium"}




def test_the_page_s_decoder_inflates_every_xz_file_to_pyodide_s_own(generated, runtime):
    # The worker's decoder (npm's xz-decompress, as build_wheel.py wraps it) on every
    # .xz file the site has: it reads their format (a CRC32 check, a dictionary it
    # can allocate) and gives back what Python's lzma does, which for the
    # WebAssembly is Pyodide's own file, byte for byte.
    files = sorted(str(generated / f) for f in runtime["sizes"] if f.endswith(".xz"))
    assert len(files) == 3  # the WebAssembly, the standard library and the wheel
    run = subprocess.run(
        [shutil.which("node"), str(ROOT / "tests" / "node" / "page_decoder_inflates.mjs"), str(generated / "xz-decompress.mjs"), *files],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout)
    for file in files:
        assert got[file] == hashlib.sha256(lzma.decompress(Path(file).read_bytes(), format=lzma.FORMAT_XZ)).hexdigest(), file
    wasm = lzma.decompress((generated / "pyodide/pyodide.asm.wasm.xz").read_bytes(), format=lzma.FORMAT_XZ)
    assert wasm == (ROOT / "node_modules/pyodide/pyodide.asm.wasm").read_bytes()
    # Smaller than a host's gzip would make the files they stand for.
    assert (generated / "pyodide/pyodide.asm.wasm.xz").stat().st_size < 0.8 * len(gzip.compress(wasm, 6))

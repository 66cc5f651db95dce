"""Issue 22 point 8: tests wait for events (qtbot.waitUntil, a joined process, a pidfd, a barrier, a gate),
never by sleeping. A `time.sleep(...)` call left in a test must say on its line why the pause itself is the
subject (a desk holding its locks while another one comes)."""
import ast
import pathlib

TESTS = pathlib.Path(__file__).resolve().parents[1]


def _sleep_calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == "sleep" and isinstance(f.value, ast.Name)
                    and f.value.id in ("time", "asyncio")) or (isinstance(f, ast.Name) and f.id == "sleep"):
                yield node.lineno


def test_no_test_sleeps_without_its_reason_on_the_line():
    silent = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for lineno in _sleep_calls(ast.parse(source)):
            if "#" not in lines[lineno - 1]:
                silent.append(f"{path.relative_to(TESTS)}:{lineno}")
    assert silent == [], "testes que dormem em vez de esperar um evento:\n" + "\n".join(silent)


def test_the_check_sees_a_sleep():
    tree = ast.parse("import time\ndef f():\n    time.sleep(1)\n")
    assert list(_sleep_calls(tree)) == [3]

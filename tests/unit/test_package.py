from desktop.domain import Problem


def test_problem_shows_article():
    assert str(Problem("doors", "O veículo deve ter 4 portas.", "Art. 2, §1")) == "O veículo deve ter 4 portas. (Art. 2, §1)"


def test_test_modules_have_unique_basenames():
    """pytest imports test files by basename (rootdir mode): two test_x.py in different folders break the
    whole collection, so the suite refuses them here with the names."""
    from collections import Counter
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    names = Counter(p.name for p in tests.rglob("*.py") if p.name != "conftest.py" and p.name != "__init__.py")
    assert [n for n, c in names.items() if c > 1] == []

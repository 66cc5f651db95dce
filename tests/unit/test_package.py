from desktop.domain import Problem


def test_problem_shows_article():
    assert str(Problem("doors", "O veículo deve ter 4 portas.", "Art. 2, §1")) == "O veículo deve ter 4 portas. (Art. 2, §1)"

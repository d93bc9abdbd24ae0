"""Name suggestions in mypy's hint texts (veritype.diagnostics.suggest)."""

from veritype.diagnostics.suggest import close_matches, quoted_choices


def test_close_matches_best_first_at_most_three() -> None:
    assert close_matches("deposti", ["deposit", "deposits", "withdraw", "balance"]) == ["deposit", "deposits"]
    assert close_matches("xyzzy", ["deposit", "balance"]) == []
    assert close_matches("abcde", ["abcdh", "abcdg", "abcdf", "abcdx"]) == ["abcdf", "abcdg", "abcdh"]  # ties: by name
    assert close_matches("abcd", ["abce"]) == []  # a ratio of exactly 0.75 is not enough
    assert close_matches("", ["a"]) == []
    assert close_matches("same", ["same"]) == []  # the name itself is no suggestion


def test_many_candidates_keep_only_near_lengths() -> None:
    pool = [f"name{i:02}" for i in range(60)] + ["name0"]
    # 61 candidates pass the cheap filter: only those within one character of "name1x" are compared.
    assert all(abs(len(m) - len("name1x")) <= 1 for m in close_matches("name1x", pool))


def test_quoted_choices() -> None:
    assert quoted_choices(["a"]) == '"a"'
    assert quoted_choices(["a", "b"]) == '"a" or "b"'
    assert quoted_choices(["a", "b", "c"]) == '"a", "b", or "c"'

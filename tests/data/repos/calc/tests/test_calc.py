from calc import Calculator, add, div


def test_add():
    assert add(2, 3) == 5


def test_div():
    assert div(6, 3) == 2


def test_push():
    c = Calculator()
    c.push(4)
    assert c.push(5) == 9

from shop.pricing import discount


class Cart:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def total(self):
        result = 0
        for name, price, qty in self.items:
            result += price * qty
        return result

    def total_with_discount(self, code):
        return discount(self.total(), code)

    def count(self):
        return len(self.items)

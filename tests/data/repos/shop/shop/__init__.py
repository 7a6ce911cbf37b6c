from shop.cart import Cart
from shop.pricing import discount

__all__ = ["Cart", "discount"]

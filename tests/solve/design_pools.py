"""Replay pools for design-class problems: correct classes and subtly wrong ones that pass the
examples (each wrong class's comment says what it gets wrong)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.solve.pools import candidate
from vibecode.problems.leetcode_data import LeetCodeProblem, from_json

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode_design"


def load(slug: str) -> LeetCodeProblem:
    return from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))


LRU_ORDERED = '''
from collections import OrderedDict

class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items = OrderedDict()

    def get(self, key: int) -> int:
        if key not in self.items:
            return -1
        self.items.move_to_end(key)
        return self.items[key]

    def put(self, key: int, value: int) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        if len(self.items) > self.capacity:
            self.items.popitem(last=False)
'''

LRU_LINKED = '''
class Node:
    def __init__(self, key=0, value=0):
        self.key, self.value = key, value
        self.prev = self.next = None

class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.map = {}
        self.head, self.tail = Node(), Node()
        self.head.next, self.tail.prev = self.tail, self.head

    def _unlink(self, node):
        node.prev.next, node.next.prev = node.next, node.prev

    def _front(self, node):
        node.next, node.prev = self.head.next, self.head
        self.head.next.prev = node
        self.head.next = node

    def get(self, key: int) -> int:
        node = self.map.get(key)
        if node is None:
            return -1
        self._unlink(node)
        self._front(node)
        return node.value

    def put(self, key: int, value: int) -> None:
        if key in self.map:
            self._unlink(self.map[key])
        node = Node(key, value)
        self.map[key] = node
        self._front(node)
        if len(self.map) > self.capacity:
            last = self.tail.prev
            self._unlink(last)
            del self.map[last.key]
'''

# Wrong: updating an existing key keeps its old place in the eviction order.
LRU_STALE_UPDATE = '''
from collections import OrderedDict

class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items = OrderedDict()

    def get(self, key: int) -> int:
        if key not in self.items:
            return -1
        self.items.move_to_end(key)
        return self.items[key]

    def put(self, key: int, value: int) -> None:
        if key in self.items:
            self.items[key] = value
            return
        self.items[key] = value
        if len(self.items) > self.capacity:
            self.items.popitem(last=False)
'''

# Wrong: evicts the oldest insertion, and crashes on a missing key.
LRU_CRASHES = '''
class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items = {}

    def get(self, key: int) -> int:
        return self.items[key]

    def put(self, key: int, value: int) -> None:
        if key not in self.items and len(self.items) >= self.capacity:
            del self.items[next(iter(self.items))]
        self.items[key] = value
'''

MIN_STACK_PAIRS = '''
class MinStack:
    def __init__(self) -> None:
        self.items = []

    def push(self, val: int) -> None:
        low = min(val, self.items[-1][1]) if self.items else val
        self.items.append((val, low))

    def pop(self) -> None:
        self.items.pop()

    def top(self) -> int:
        return self.items[-1][0]

    def getMin(self) -> int:
        return self.items[-1][1]
'''

MIN_STACK_TWO = '''
class MinStack:
    def __init__(self) -> None:
        self.stack, self.mins = [], []

    def push(self, val: int) -> None:
        self.stack.append(val)
        if not self.mins or val <= self.mins[-1]:
            self.mins.append(val)

    def pop(self) -> None:
        if self.stack.pop() == self.mins[-1]:
            self.mins.pop()

    def top(self) -> int:
        return self.stack[-1]

    def get_min(self) -> int:
        return self.mins[-1]
'''

# Wrong: a repeated minimum is kept once, so popping one copy forgets the other.
MIN_STACK_STRICT = MIN_STACK_TWO.replace("val <= self.mins[-1]", "val < self.mins[-1]")

MEDIAN_HEAPS = '''
import heapq

class MedianFinder:
    def __init__(self) -> None:
        self.low, self.high = [], []

    def addNum(self, num: int) -> None:
        heapq.heappush(self.low, -num)
        heapq.heappush(self.high, -heapq.heappop(self.low))
        if len(self.high) > len(self.low):
            heapq.heappush(self.low, -heapq.heappop(self.high))

    def findMedian(self) -> float:
        if len(self.low) > len(self.high):
            return float(-self.low[0])
        return (-self.low[0] + self.high[0]) / 2
'''

MEDIAN_SORTED = '''
import bisect

class MedianFinder:
    def __init__(self) -> None:
        self.values = []

    def add_num(self, num: int) -> None:
        bisect.insort(self.values, num)

    def find_median(self) -> float:
        n = len(self.values)
        mid = n // 2
        return float(self.values[mid]) if n % 2 else (self.values[mid - 1] + self.values[mid]) / 2
'''

# Wrong: assumes the numbers arrive in increasing order (they do in the example).
MEDIAN_APPEND = '''
class MedianFinder:
    def __init__(self) -> None:
        self.values = []

    def addNum(self, num: int) -> None:
        self.values.append(num)

    def findMedian(self) -> float:
        n = len(self.values)
        mid = n // 2
        return float(self.values[mid]) if n % 2 else (self.values[mid - 1] + self.values[mid]) / 2
'''

TRIE_NODES = '''
class Trie:
    def __init__(self) -> None:
        self.root = {}

    def insert(self, word: str) -> None:
        node = self.root
        for ch in word:
            node = node.setdefault(ch, {})
        node["$"] = True

    def _walk(self, text):
        node = self.root
        for ch in text:
            if ch not in node:
                return None
            node = node[ch]
        return node

    def search(self, word: str) -> bool:
        node = self._walk(word)
        return node is not None and "$" in node

    def startsWith(self, prefix: str) -> bool:
        return self._walk(prefix) is not None
'''

TRIE_SET = '''
class Trie:
    def __init__(self) -> None:
        self.words = set()

    def insert(self, word: str) -> None:
        self.words.add(word)

    def search(self, word: str) -> bool:
        return word in self.words

    def starts_with(self, prefix: str) -> bool:
        return any(w.startswith(prefix) for w in self.words)
'''

# Wrong: only prefixes of length 3 are remembered (the example asks for "app").
TRIE_THREE = '''
class Trie:
    def __init__(self) -> None:
        self.words, self.prefixes = set(), set()

    def insert(self, word: str) -> None:
        self.words.add(word)
        self.prefixes.add(word[:3])

    def search(self, word: str) -> bool:
        return word in self.words

    def startsWith(self, prefix: str) -> bool:
        return prefix[:3] in self.prefixes
'''

# slug -> (correct classes, wrong classes that pass the examples, class that fails them)
POOLS: dict[str, tuple[list[str], list[str]]] = {
    "lru_cache": ([LRU_ORDERED, LRU_LINKED], [LRU_STALE_UPDATE]),
    "min_stack": ([MIN_STACK_PAIRS, MIN_STACK_TWO], [MIN_STACK_STRICT]),
    "find_median_from_data_stream": ([MEDIAN_HEAPS, MEDIAN_SORTED], [MEDIAN_APPEND]),
    "implement_trie_prefix_tree": ([TRIE_NODES, TRIE_SET], [TRIE_THREE]),
}


def design_pool(slug: str, *, wrong: bool = True) -> list[dict[str, str]]:
    """Correct classes first, then (with ``wrong``) the subtly wrong one."""
    right, bad = POOLS[slug]
    return [candidate("Keep the state in the class; each operation updates it.", code)
            for code in right + (bad if wrong else [])]

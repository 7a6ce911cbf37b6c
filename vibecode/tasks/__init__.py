"""Task kinds. Problems: ``problem`` (parse LeetCode/HumanEval text), ``math`` (math questions);
helpers ``literals``, ``typespec``, ``signature``, ``binding``, ``humaneval``, ``constraints``."""

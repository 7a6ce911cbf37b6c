"""Reading problem statements into a :class:`~vibecode.types.Problem`: LeetCode (Markdown, text, HTML), HumanEval and math questions, with their types, literals, constraints and signature binding."""

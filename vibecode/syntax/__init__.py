"""Source code parsing with tree-sitter: languages, syntax checks and the definitions a file holds."""

"""`engine`: the program held across requests, checking it, and the questions asked of it.

DESIGN.md puts the engine above `check` (and the `cache`) and below the
drivers (`server`, `cli`). `checking` is the one path from a loaded
`Program` (evaluate/program.py) to a module's diagnostics; `build.run` is
one `veritype check` over it (with the incremental cache and `workers`, the
worker processes of `-n N`; `deep_stack` gives it room to recurse). It owns
a `Program` over the editor's open documents (`workspace.Snapshot`, for the
language server and the daemon) and answers queries about positions in
them (`queries`): the type at a point, the definition of a name, the
members of a type. The language server calls only these functions; it
never reaches into the evaluator itself.
"""

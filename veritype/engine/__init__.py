"""`engine`: the program held across requests, and the questions asked of it.

DESIGN.md puts the engine above `check` and below the drivers: it owns a
`Program` over the editor's open documents (`workspace.Snapshot`) and
answers queries about positions in them (`queries`): the type at a point,
the definition of a name, the members of a type. The language server calls
only these functions; it never reaches into the evaluator itself. `workers`
checks a run's modules in worker processes (`-n N`).
"""

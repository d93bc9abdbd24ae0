"""`server`: the long-running drivers (DESIGN.md): watch mode and the language server.

Both re-run the ordinary pipeline (`veritype.engine.build.run`) and lean on the
incremental cache (`veritype.cache`) so that a re-check after an edit checks
only what the edit can have changed.
"""

"""The engine: what runs a check above the pipeline (worker processes today).

See DESIGN.md, "The pipeline": the engine sits above `cache` and below the
drivers (`server`, `cli`).
"""

"""The runtime with the task engine (procrastinate on PostgreSQL): engine, tasks, planner, roles.
docs/scaling.md says how they fit together; without PostgreSQL or procrastinate, ``digest-bot run`` stays the
single process of ``bot/platforms/runtime.py``."""

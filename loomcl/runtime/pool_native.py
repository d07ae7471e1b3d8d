"""Old home of the worker pool's native half, which now lives in loomcl/codegen/worker_pool.py.

Kept only for launch_plan.py's import of the launch structures; import them from
loomcl.codegen.worker_pool (or loomcl.runtime.pool) instead, and delete this module once nothing does.
"""
from loomcl.codegen.worker_pool import LaunchRequest, RegionDesc

__all__ = ["LaunchRequest", "RegionDesc"]

"""loomcl's version: one place, read by pyproject.toml, the device info and the native-code cache key."""
__version__ = "0.1.0"

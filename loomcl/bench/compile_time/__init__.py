"""The bench's compile-time section: cold builds and first launches of large programs on loomcl (with
the time of each compiler stage) beside PoCL."""
